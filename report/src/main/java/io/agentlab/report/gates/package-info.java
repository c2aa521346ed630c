/** Gates: thresholds, strict parity and a committed baseline, each a test node so a breach fails the build. */
package io.agentlab.report.gates;
