// The page's behaviour: the results filter and links into closed sections (docs/engine.md#html-report).
// It reads the tests from the page's data block, #agentlab-data, which HtmlReport writes with every row's index.
(function () {
  var data = JSON.parse(document.getElementById('agentlab-data').textContent);
  var rows = Array.prototype.slice.call(document.querySelectorAll('tr.result'));
  var tests = rows.map(function (row) {
    var t = data.tests[Number(row.dataset.test)];
    // a gate belongs to no suite: its group is data.gates, and the mode filter calls every gate 'gate'
    return { row: row, status: t.status, group: t.suite === undefined ? data.gates : t.suite,
      mode: t.kind === 'gate' ? 'gate' : t.mode, tags: t.tags,
      text: [t.suite || '', t.name, t.mode, t.tags.join(' '), t.message || ''].join(' ').toLowerCase() };
  });
  var groups = Array.prototype.slice.call(document.querySelectorAll('.suite-group'));
  var text = document.getElementById('filter'), count = document.getElementById('filter-count');
  var selects = ['f-status', 'f-suite', 'f-mode', 'f-tag'].map(function (id) { return document.getElementById(id); });
  function matches(t, q, status, suite, mode, tag) {
    if (q && t.text.indexOf(q) < 0) return false;
    if (status && (status === 'broken' ? (t.status !== 'failed' && t.status !== 'aborted') : t.status !== status)) return false;
    if (suite && t.group !== suite) return false;
    if (mode && t.mode !== mode) return false;
    if (tag && t.tags.indexOf(tag) < 0) return false;
    return true;
  }
  function apply() {
    var q = text.value.trim().toLowerCase(), v = selects.map(function (s) { return s.value; }), shown = 0;
    tests.forEach(function (t) {
      var ok = matches(t, q, v[0], v[1], v[2], v[3]);
      t.row.hidden = !ok;
      if (ok) shown++;
    });
    var filtering = q || v.some(function (x) { return x; });
    groups.forEach(function (g) {
      var any = !!g.querySelector('tr.result:not([hidden])');
      g.hidden = !any;
      // while filtering, every group with a match is open; otherwise only those with a broken test
      g.open = filtering ? any : g.dataset.broken === 'true';
    });
    count.textContent = shown + ' of ' + rows.length + ' tests shown';
  }
  [text].concat(selects).forEach(function (el) {
    el.addEventListener('input', apply);
    el.addEventListener('change', apply);
  });
  text.addEventListener('keydown', function (e) {
    if (e.key === 'Escape') { text.value = ''; apply(); }
  });
  document.addEventListener('keydown', function (e) {
    var tag = document.activeElement && document.activeElement.tagName;
    if (e.key === '/' && tag !== 'INPUT' && tag !== 'SELECT' && tag !== 'TEXTAREA') {
      e.preventDefault();
      text.focus();
    }
  });
  function open(id) {
    var el = id && document.getElementById(id);
    if (!el) return;
    // a link into a closed <details> opens it (and the ones around it) before the browser scrolls there
    for (var d = el.closest('details'); d; d = d.parentElement && d.parentElement.closest('details')) d.open = true;
  }
  document.addEventListener('click', function (e) {
    var link = e.target.closest && e.target.closest('a[href^="#"]');
    if (link) open(decodeURIComponent(link.getAttribute('href').slice(1)));
  });
  window.addEventListener('hashchange', function () { open(decodeURIComponent(location.hash.slice(1))); });
  if (location.hash) {
    open(decodeURIComponent(location.hash.slice(1)));
    var target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (target) target.scrollIntoView();
  }
  apply();
  document.documentElement.setAttribute('data-report-ready', '');
})();
