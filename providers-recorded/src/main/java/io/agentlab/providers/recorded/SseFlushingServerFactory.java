package io.agentlab.providers.recorded;

import com.github.tomakehurst.wiremock.core.Options;
import com.github.tomakehurst.wiremock.http.AdminRequestHandler;
import com.github.tomakehurst.wiremock.http.HttpServer;
import com.github.tomakehurst.wiremock.http.HttpServerFactory;
import com.github.tomakehurst.wiremock.http.StubRequestHandler;
import com.github.tomakehurst.wiremock.jetty11.Jetty11HttpServer;
import java.io.IOException;
import java.util.EnumSet;
import wiremock.jakarta.servlet.DispatcherType;
import wiremock.jakarta.servlet.Filter;
import wiremock.jakarta.servlet.FilterChain;
import wiremock.jakarta.servlet.ServletException;
import wiremock.jakarta.servlet.ServletOutputStream;
import wiremock.jakarta.servlet.ServletRequest;
import wiremock.jakarta.servlet.ServletResponse;
import wiremock.jakarta.servlet.WriteListener;
import wiremock.jakarta.servlet.http.HttpServletResponse;
import wiremock.jakarta.servlet.http.HttpServletResponseWrapper;
import wiremock.org.eclipse.jetty.servlet.FilterHolder;
import wiremock.org.eclipse.jetty.servlet.ServletContextHandler;

/**
 * WireMock's Jetty server with two additions: {@code text/event-stream} responses are flushed after every write
 * (without it Jetty buffers the body and every timed event arrives at the end), and the moment a request enters the
 * server is noted, so offsets count from there rather than from after WireMock's matching and logging.
 */
final class SseFlushingServerFactory implements HttpServerFactory {

    /** When the current request entered the server (set on the request thread, before WireMock's own work). */
    private static final ThreadLocal<Long> ARRIVAL = new ThreadLocal<>();

    /** The arrival time of the request being served on this thread, or now. */
    static long arrival() {
        Long arrived = ARRIVAL.get();
        return arrived == null ? System.nanoTime() : arrived;
    }

    @Override
    public HttpServer buildHttpServer(Options options, AdminRequestHandler admin, StubRequestHandler stubs) {
        return new Jetty11HttpServer(options, admin, stubs) {
            @Override
            protected void decorateMockServiceContextBeforeConfig(ServletContextHandler context) {
                context.addFilter(new FilterHolder(new FlushFilter()), "/*", EnumSet.of(DispatcherType.REQUEST));
            }
        };
    }

    private static final class FlushFilter implements Filter {
        @Override
        public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
                throws IOException, ServletException {
            ARRIVAL.set(System.nanoTime());
            try {
                serve(request, response, chain);
            } finally {
                ARRIVAL.remove();
            }
        }

        private void serve(ServletRequest request, ServletResponse response, FilterChain chain)
                throws IOException, ServletException {
            chain.doFilter(request, new HttpServletResponseWrapper((HttpServletResponse) response) {
                private ServletOutputStream flushing;

                @Override
                public ServletOutputStream getOutputStream() throws IOException {
                    ServletOutputStream inner = super.getOutputStream();
                    String type = getContentType();
                    if (type == null || !type.startsWith("text/event-stream")) {
                        return inner;
                    }
                    if (flushing == null) {
                        flushing = new ServletOutputStream() {
                            @Override
                            public void write(int b) throws IOException {
                                inner.write(b);
                                inner.flush();
                            }

                            @Override
                            public void write(byte[] bytes, int offset, int length) throws IOException {
                                inner.write(bytes, offset, length);
                                inner.flush();
                            }

                            @Override
                            public boolean isReady() {
                                return inner.isReady();
                            }

                            @Override
                            public void setWriteListener(WriteListener listener) {
                                inner.setWriteListener(listener);
                            }
                        };
                    }
                    return flushing;
                }
            });
        }
    }
}
