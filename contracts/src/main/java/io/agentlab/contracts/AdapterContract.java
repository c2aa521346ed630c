package io.agentlab.contracts;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;
import org.junit.jupiter.api.Tag;

/**
 * Marks a service team's adapter test and names the port it implements. The class implements
 * {@link AdapterContractTests}; the rules come from the {@link AdapterRuleCatalogue} registered for that port
 * ({@code docs/adapter-contract.md}):
 *
 * <pre>{@code
 * @AdapterContract(CalendarSchedulePort.class)
 * class RestCalendarContractTest implements AdapterContractTests<CalendarSchedulePort> {
 *     public CalendarSchedulePort adapter() { return new RestCalendarAdapter(serviceUrl); }
 *     public void given(String state) { ... put the service into the named state, or abort ... }
 * }
 * }</pre>
 */
@Documented
@Inherited
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag("adapter-contract")
@API(status = EXPERIMENTAL, since = "0.1")
public @interface AdapterContract {

    /** The port the adapter implements. */
    Class<?> value();
}
