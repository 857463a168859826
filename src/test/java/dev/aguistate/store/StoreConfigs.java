package dev.aguistate.store;

import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.time.Duration;
import java.util.Map;

/** {@code agui.store.*} as the server reads it, from the given properties and the defaults. */
public final class StoreConfigs {

    private StoreConfigs() {}

    public static StoreConfig of(Map<String, String> properties) {
        return new SmallRyeConfigBuilder()
                .withMapping(StoreConfig.class)
                .withConverter(Duration.class, 200, new DurationConverter())
                .withSources(new PropertiesConfigSource(properties, "test", 100))
                .build()
                .getConfigMapping(StoreConfig.class);
    }
}
