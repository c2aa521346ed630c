package io.agentlab.contracts;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/** The required flag decides behaviour, the same for plugin and adapter catalogues. */
class RequirementTest {

    private static void cannotRun() {
        throw new TestAbortedException("needs pluginWithFailingPort()");
    }

    @Test
    @DisplayName("a required rule that cannot run fails, naming the rule and why")
    void requiredNeverSkips() {
        assertThatThrownBy(() -> Requirement.REQUIRED.run("required_PC-09_x", RequirementTest::cannotRun))
                .isInstanceOf(AssertionFailedError.class)
                .hasMessage("required_PC-09_x is required and never skips, but it could not run: "
                        + "needs pluginWithFailingPort()");
    }

    @Test
    @DisplayName("a required rule whose prerequisite already failed as another rule aborts, so the cause shows once")
    void prerequisiteFailedAborts() {
        assertThatThrownBy(() -> Requirement.REQUIRED.run("required_PC-02_x", () -> {
            throw new Requirement.PrerequisiteFailed("the definition cannot be built (see PC-01)");
        })).isInstanceOf(Requirement.PrerequisiteFailed.class);
    }

    @Test
    @DisplayName("an optional rule that cannot run skips with the check's reason")
    void optionalSkips() {
        assertThatThrownBy(() -> Requirement.OPTIONAL.run("optional_PC-09_x", RequirementTest::cannotRun))
                .isInstanceOf(TestAbortedException.class).hasMessage("needs pluginWithFailingPort()");
    }

    @Test
    @DisplayName("failures and passes are the same for both")
    void failuresAndPasses() {
        for (Requirement requirement : Requirement.values()) {
            assertThatThrownBy(() -> requirement.run("r", () -> {
                throw new AssertionError("broke");
            })).isInstanceOf(AssertionError.class).hasMessage("broke");
            assertThatCode(() -> requirement.run("r", () -> { })).doesNotThrowAnyException();
            assertThatThrownBy(() -> Requirement.of(requirement == Requirement.REQUIRED).run("r",
                    RequirementTest::cannotRun)).isInstanceOf(requirement == Requirement.REQUIRED
                    ? AssertionFailedError.class : TestAbortedException.class);
        }
    }
}
