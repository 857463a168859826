package dev.aguistate.samples;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Locale;

/** Made-up but stable weather: the same location always gets the same report. */
record Weather(String location, int temperatureC, String conditions, int humidityPercent, int windKph) {

    private static final List<String> CONDITIONS = List.of("sunny", "partly cloudy", "cloudy", "light rain",
            "showers", "windy", "foggy", "snow");

    static Weather forLocation(String location) {
        String place = location.isBlank() ? "Unknown" : location.strip();
        int seed = Math.floorMod(place.toLowerCase(Locale.ROOT).hashCode(), 1_000_003);
        return new Weather(place, -5 + seed % 35, CONDITIONS.get(seed / 35 % CONDITIONS.size()),
                30 + seed / 7 % 60, seed / 11 % 40);
    }

    ObjectNode toJson() {
        return JsonNodeFactory.instance.objectNode()
                .put("location", location)
                .put("temperatureC", temperatureC)
                .put("conditions", conditions)
                .put("humidityPercent", humidityPercent)
                .put("windKph", windKph);
    }
}
