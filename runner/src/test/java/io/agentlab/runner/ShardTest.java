package io.agentlab.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.strings;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Shards partition the cases: every case in exactly one shard, decided by its unique id alone. */
class ShardTest {

    @Test
    @DisplayName("property: for any case ids and any N, each id is held by exactly one of the shards 1..N")
    void partition() {
        qt().withExamples(500).forAll(lists().of(strings().allPossible().ofLengthBetween(1, 60)).ofSizeBetween(0, 40),
                integers().between(1, 12)).checkAssert((ids, count) -> {
            for (String id : ids) {
                String caseId = "[engine:agentlab-conformance]/[suite:s]/[case:" + id + "]";
                int holders = 0;
                for (int index = 1; index <= count; index++) {
                    holders += new Shard(index, count).holds(caseId) ? 1 : 0;
                }
                assertThat(holders).as(caseId + " over " + count + " shards").isEqualTo(1);
                assertThat(Shard.of(caseId, count)).isEqualTo(Shard.of(caseId, count));
            }
        });
    }

    @Test
    @DisplayName("I/N parses; anything else is a usage error naming --shard")
    void parse() {
        assertThat(Shard.parse(" 2/4 ")).isEqualTo(new Shard(2, 4));
        assertThat(Shard.parse("2/4")).hasToString("2/4");
        for (String bad : new String[] {"0/4", "5/4", "2", "a/b", "1/0", "2/4/8"}) {
            assertThatThrownBy(() -> Shard.parse(bad)).as(bad).isInstanceOf(UsageException.class)
                    .hasMessageStartingWith("--shard: expected I/N");
        }
    }
}
