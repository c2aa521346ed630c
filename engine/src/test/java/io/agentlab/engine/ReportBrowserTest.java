package io.agentlab.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import io.agentlab.report.internal.StatusLabelSweep;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * The HTML report in a real browser: Debian's headless Chromium, driven through its chromedriver by Selenium, opens
 * the report of a run with one deliberately broken case, and a reader's first minute is replayed — on a 1400×900
 * first screen the whole answer to "which mode is better", then the failure and its message right after it, its
 * timeline one click away, the filter by typing and by keyboard alone, the charts drawn, the
 * page usable on a phone. Screenshots land in {@code target/report-browser/}.
 *
 * <p>Without Chromium this test is skipped, saying how to install it — except where the build requires it
 * ({@code CI=true}, as {@code .ci/run} runs, or {@code -Dagentlab-build.browser.required=true}): there it fails.
 */
class ReportBrowserTest {

    /** Where the screenshots go. */
    static final Path SCREENSHOTS = Path.of("target/report-browser");
    /** Chromium's switches for a closed network: no background traffic, no first-run work, a fresh profile. */
    static final List<String> SWITCHES = List.of("--headless", "--no-sandbox", "--disable-gpu",
            "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
            "--disable-dev-shm-usage", "--hide-scrollbars");

    /** A newcomer's laptop screen: the first screen must answer which mode to use (docs/engine.md#html-report). */
    static final Dimension FIRST_SCREEN = new Dimension(1400, 900);

    private static ChromeDriverService service;
    private static ChromeDriver browser;
    private static ReportFixture.Run run;

    @BeforeAll
    static void openBrowser(@TempDir Path profile) throws IOException {
        Optional<Path> chromium = executable("agentlab-build.browser.chromium", "chromium", "chromium-browser");
        Optional<Path> driver = executable("agentlab-build.browser.chromedriver", "chromedriver");
        if (chromium.isEmpty() || driver.isEmpty()) {
            String missing = "the report's browser test needs Chromium and its chromedriver, and "
                    + (chromium.isEmpty() ? "chromium" : "chromedriver") + " is not on this machine (Debian: "
                    + "apt-get install chromium chromium-driver; .ci/run installs them)";
            if (required()) {
                fail(missing + "; this build requires the browser test (CI=" + System.getenv("CI")
                        + ", -Dagentlab-build.browser.required=" + System.getProperty("agentlab-build.browser.required") + ")");
            }
            Assumptions.abort(missing + "; skipped here, it fails in CI");
        }
        run = ReportFixture.get();
        Files.createDirectories(SCREENSHOTS);
        service = new ChromeDriverService.Builder().usingDriverExecutable(driver.get().toFile()).usingAnyFreePort()
                .build();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(chromium.get().toFile());
        List<String> switches = new ArrayList<>(SWITCHES);
        switches.add("--user-data-dir=" + profile.toAbsolutePath());
        switches.add("--window-size=" + FIRST_SCREEN.getWidth() + "," + FIRST_SCREEN.getHeight());
        options.addArguments(switches);
        browser = new ChromeDriver(service, options);
    }

    /**
     * Each test opens the report afresh on a newcomer's first screen: the page's viewport, not the window, is
     * {@link #FIRST_SCREEN} (the window's own frame is measured and added).
     */
    @BeforeEach
    void openReport() {
        browser.manage().window().setSize(FIRST_SCREEN);
        browser.get(run.html().toAbsolutePath().toUri().toString());
        List<Double> frame = numbers("return [window.outerWidth - window.innerWidth, "
                + "window.outerHeight - window.innerHeight]");
        browser.manage().window().setSize(new Dimension(FIRST_SCREEN.getWidth() + frame.get(0).intValue(),
                FIRST_SCREEN.getHeight() + frame.get(1).intValue()));
        assertThat(numbers("return [window.innerWidth, window.innerHeight]")).as("the viewport")
                .containsExactly((double) FIRST_SCREEN.getWidth(), (double) FIRST_SCREEN.getHeight());
    }

    @AfterAll
    static void closeBrowser() {
        if (browser != null) {
            browser.quit();
        }
        if (service != null) {
            service.stop();
        }
    }

    @Test
    @DisplayName("a reader finds the broken case, its message and its timeline; filters by keyboard; sees the charts")
    void readersFirstMinute() throws IOException {
        assertThat(script("return document.documentElement.hasAttribute('data-report-ready')"))
                .as("the page's script ran to its end").isEqualTo(true);

        // the answer first: which mode is better, per family of measures, on a 1400×900 first screen
        WebElement answer = browser.findElement(By.id("answer-summary"));
        assertThat(answer.isDisplayed()).isTrue();
        assertThat(answer.getText()).containsAnyOf("better on", "no mode is better");
        List<WebElement> families = browser.findElements(By.cssSelector("#answer li.family"));
        assertThat(families).extracting(family -> family.getDomAttribute("data-family")).contains("speed", "tokens");
        WebElement last = families.get(families.size() - 1);
        assertThat(last.getRect().getY() + last.getRect().getHeight()).as("the whole answer on the first screen")
                .isLessThanOrEqualTo(FIRST_SCREEN.getHeight());
        screenshot(browser.getScreenshotAs(OutputType.FILE), "report-first-screen.png");

        // the failure, right after the answer (within 200 px below the first screen), with its message
        List<WebElement> failures = browser.findElements(By.cssSelector("#failures li.failure"));
        assertThat(failures).hasSize(2);
        WebElement failure = failures.get(0);
        assertThat(failure.findElement(By.tagName("h3")).getText()).contains("report/deliberately-broken");
        WebElement message = failure.findElement(By.cssSelector("pre.message"));
        assertThat(message.isDisplayed()).isTrue();
        assertThat(message.getText()).contains("35");
        assertThat(failure.getRect().getY()).as("right after the answer").isLessThan(FIRST_SCREEN.getHeight() + 200);

        // its timeline, one click away: both lanes drawn
        failure.findElement(By.cssSelector("a.timeline-link")).click();
        WebElement timeline = browser.findElement(By.id("tl-report--deliberately-broken"));
        assertThat(timeline.getDomProperty("open")).isEqualTo("true");
        WebElement svg = timeline.findElement(By.cssSelector("svg.timeline-svg"));
        assertThat(svg.isDisplayed()).isTrue();
        assertThat(svg.getRect().getWidth()).isGreaterThan(500);
        assertThat(numbers("return Array.from(document.querySelectorAll('#tl-report--deliberately-broken g.lane'))"
                + ".map(g => g.getBBox().width)")).as("a drawn lane per mode").hasSize(2)
                .allSatisfy(width -> assertThat(width).isGreaterThan(100));
        assertThat(numbers("return Array.from(document.querySelectorAll('#tl-report--deliberately-broken g.lane "
                + "rect[fill-opacity]')).map(r => r.getBBox().width)")).as("calls and events as bars")
                .isNotEmpty().allSatisfy(width -> assertThat(width).isPositive());
        screenshot(timeline.getScreenshotAs(OutputType.FILE), "failure-timeline.png");

        // the filter, by typing
        WebElement filter = browser.findElement(By.id("filter"));
        int all = browser.findElements(By.cssSelector("tr.result")).size();
        filter.sendKeys("weather");
        assertThat(visibleRows()).hasSize(3).allSatisfy(row -> assertThat(row).contains("weather-follow-up"));
        assertThat(browser.findElement(By.id("filter-count")).getText()).isEqualTo("3 of " + all + " tests shown");
        filter.sendKeys(Keys.ESCAPE);
        assertThat(visibleRows()).hasSize(all);

        // and by keyboard alone: "/" focuses the search, Tab reaches the status list, an arrow picks "failed or aborted"
        browser.findElement(By.tagName("body")).sendKeys("/");
        assertThat(script("return document.activeElement.id")).isEqualTo("filter");
        browser.switchTo().activeElement().sendKeys(Keys.TAB);
        assertThat(script("return document.activeElement.id")).isEqualTo("f-status");
        browser.switchTo().activeElement().sendKeys(Keys.ARROW_DOWN);
        assertThat(script("return document.activeElement.value")).isEqualTo("broken");
        assertThat(visibleRows()).hasSize(2).allSatisfy(row -> assertThat(row).contains("deliberately-broken"));
        browser.switchTo().activeElement().sendKeys(Keys.TAB, Keys.TAB, Keys.ARROW_DOWN);
        assertThat(script("return document.activeElement.id")).as("suite, then mode").isEqualTo("f-mode");
        assertThat(visibleRows()).hasSize(1);
        script("document.querySelectorAll('.filters select').forEach(s => { s.value = ''; "
                + "s.dispatchEvent(new Event('change')); })");
        assertThat(visibleRows()).hasSize(all);

        // the charts are drawn
        for (String chart : List.of("chart-ms", "chart-tokens", "chart-calls", "chart-rate", "chart-matrix-tokens",
                "chart-matrix-ttft", "chart-growth")) {
            WebElement element = browser.findElement(By.id(chart));
            assertThat(element.isDisplayed()).as(chart).isTrue();
            assertThat(element.getRect().getWidth()).as(chart).isGreaterThan(300);
        }
        assertThat(numbers("return Array.from(document.querySelectorAll('#chart-tokens rect.dual_agent, "
                + "#chart-tokens rect.chat_agent_tools')).map(r => r.getBBox().width)")).as("token bars")
                .hasSizeGreaterThanOrEqualTo(2).allSatisfy(width -> assertThat(width).isPositive());
        assertThat(numbers("return Array.from(document.querySelectorAll('#chart-growth polyline'))"
                + ".map(p => p.getBBox().width)")).hasSize(2).allSatisfy(width -> assertThat(width).isGreaterThan(300));
        screenshot(browser.findElement(By.cssSelector("#comparison .charts")).getScreenshotAs(OutputType.FILE),
                "comparison-charts.png");
        screenshot(browser.findElement(By.id("control")).getScreenshotAs(OutputType.FILE), "control-and-growth.png");
        browser.findElement(By.cssSelector("#tl-report--weather-follow-up > summary")).click();
        screenshot(browser.findElement(By.id("tl-report--weather-follow-up")).getScreenshotAs(OutputType.FILE),
                "follow-up-timeline.png");

        // a phone-sized screen: nothing wider than the screen, the failure still first
        browser.manage().window().setSize(new Dimension(390, 844));
        script("window.scrollTo(0, 0)");
        assertThat(numbers("return [document.documentElement.scrollWidth, window.innerWidth]"))
                .satisfies(widths -> assertThat(widths.get(0)).as("no sideways scrolling").isLessThanOrEqualTo(
                        widths.get(1)));
        assertThat(browser.findElement(By.cssSelector("#failures li.failure")).isDisplayed()).isTrue();
        screenshot(browser.getScreenshotAs(OutputType.FILE), "report-phone.png");
    }

    @Test
    @DisplayName("every label of every chart and timeline is drawn whole inside its figure and overlaps no other")
    void labelsNeitherOverlapNorGetCut() {
        assertThat(labelProblems()).as("labels cut or overlapping").isEmpty();
        assertThat(numbers("return [document.querySelectorAll('svg.timeline-svg text').length]").get(0))
                .as("timelines were drawn and checked").isGreaterThan(20);
    }

    /**
     * A run's timings put a status label near the right edge only by chance (a CI run once cut "succeeded" there):
     * a synthesized report puts every status word at every half pixel near it.
     */
    @Test
    @DisplayName("a status label is drawn whole wherever its event ends, every status word")
    void statusLabelsStayInsideWhereverTheEventEnds(@TempDir Path folder) throws IOException {
        Path page = Files.writeString(folder.resolve("sweep.html"), StatusLabelSweep.html());
        browser.get(page.toUri().toString());

        assertThat(labelProblems()).as("labels cut or overlapping").isEmpty();
        assertThat(numbers("return [document.querySelectorAll('svg.timeline-svg text.bar-label').length]").get(0))
                .as("the sweep's status labels were drawn and checked").isGreaterThan(4_000);
    }

    /** Each label of each figure on the page that leaves its figure or overlaps another, said in a line. */
    private static List<?> labelProblems() {
        // closed <details> draw nothing, and an undrawn label has no box: open them all first
        script("document.querySelectorAll('details').forEach(d => d.open = true)");
        return (List<?>) script("""
                const problems = [];
                document.querySelectorAll('svg[viewBox]').forEach(svg => {
                  const view = svg.viewBox.baseVal;
                  const name = svg.closest('[id]') ? svg.closest('[id]').id : 'an svg';
                  // each box in the figure's own units, through any rotation (the growth chart's y-axis title)
                  const toFigure = t => svg.getScreenCTM().inverse().multiply(t.getScreenCTM());
                  const boxes = Array.from(svg.querySelectorAll('text')).filter(t => t.textContent.trim() !== '')
                      .map(t => {
                        const b = t.getBBox(), m = toFigure(t);
                        const corners = [[b.x, b.y], [b.x + b.width, b.y], [b.x, b.y + b.height],
                            [b.x + b.width, b.y + b.height]].map(([x, y]) => new DOMPoint(x, y).matrixTransform(m));
                        const xs = corners.map(p => p.x), ys = corners.map(p => p.y);
                        const x = Math.min(...xs), y = Math.min(...ys);
                        return {text: t.textContent, box: {x, y, width: Math.max(...xs) - x,
                            height: Math.max(...ys) - y}};
                      });
                  boxes.forEach(({text, box}) => {
                    if (box.x < view.x - 0.5 || box.y < view.y - 0.5 || box.x + box.width > view.x + view.width + 0.5
                        || box.y + box.height > view.y + view.height + 0.5) {
                      problems.push(name + ': "' + text + '" is cut by the edge of its figure');
                    }
                  });
                  for (let i = 0; i < boxes.length; i++) {
                    for (let j = i + 1; j < boxes.length; j++) {
                      const a = boxes[i].box, b = boxes[j].box;
                      // a pixel of slack: glyph boxes include the line's leading
                      if (a.x + 1 < b.x + b.width && b.x + 1 < a.x + a.width && a.y + 1 < b.y + b.height
                          && b.y + 1 < a.y + a.height) {
                        problems.push(name + ': "' + boxes[i].text + '" overlaps "' + boxes[j].text + '"');
                      }
                    }
                  }
                });
                return problems;""");
    }

    private List<String> visibleRows() {
        return browser.findElements(By.cssSelector("tr.result")).stream().filter(WebElement::isDisplayed)
                .map(WebElement::getText).toList();
    }

    private static Object script(String script) {
        return ((JavascriptExecutor) browser).executeScript(script);
    }

    private static List<Double> numbers(String script) {
        return ((List<?>) script(script)).stream().map(n -> ((Number) n).doubleValue()).toList();
    }

    private static void screenshot(File taken, String name) throws IOException {
        Files.copy(taken.toPath(), SCREENSHOTS.resolve(name), StandardCopyOption.REPLACE_EXISTING);
    }

    private static boolean required() {
        return Boolean.getBoolean("agentlab-build.browser.required") || "true".equalsIgnoreCase(System.getenv("CI"));
    }

    /** A system property's path, else the first of {@code names} on the PATH. */
    private static Optional<Path> executable(String property, String... names) {
        String configured = System.getProperty(property);
        if (configured != null && !configured.isBlank()) {
            return Optional.of(Path.of(configured)).filter(Files::isExecutable);
        }
        String path = Optional.ofNullable(System.getenv("PATH")).orElse("/usr/bin:/bin");
        for (String name : names) {
            Optional<Path> found = Arrays.stream(path.split(File.pathSeparator)).map(dir -> Path.of(dir, name))
                    .filter(Files::isExecutable).findFirst();
            if (found.isPresent()) {
                return found;
            }
        }
        return Optional.empty();
    }
}
