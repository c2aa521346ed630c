package io.agentlab.engine;

import io.agentlab.engine.internal.suite.SuiteOrigin;
import io.agentlab.engine.internal.yaml.Position;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.TestTag;
import org.junit.platform.engine.support.descriptor.ClasspathResourceSource;
import org.junit.platform.engine.support.descriptor.FilePosition;
import org.junit.platform.engine.support.descriptor.FileSource;

/** Test sources and tags of suite nodes: IDEs jump to the line, filters see the suite's tags. */
final class Sources {

    private Sources() {
    }

    static TestSource of(SuiteOrigin origin, Position at) {
        FilePosition position = FilePosition.from(at.line(), at.column());
        if (origin.file().isPresent()) {
            return FileSource.from(origin.file().get().toFile(), position);
        }
        return ClasspathResourceSource.from(origin.classpathResource().orElseThrow(), position);
    }

    static Set<TestTag> tags(Collection<String> names) {
        Set<TestTag> tags = new LinkedHashSet<>();
        for (String name : names) {
            if (TestTag.isValid(name)) {
                tags.add(TestTag.create(name));
            }
        }
        return tags;
    }
}
