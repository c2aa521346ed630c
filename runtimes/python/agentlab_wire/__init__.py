"""A second, independent agentlab-wire/1 runtime (issue 31), standard library only.

Written from docs/wire.md, docs/design.md, docs/kernel.md, docs/runtime.md and docs/plugins.md; see README.md for
what it implements and where it knowingly deviates.
"""

CONTRACT = "agentlab-wire/1"
