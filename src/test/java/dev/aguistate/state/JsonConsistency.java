package dev.aguistate.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.Map;

/**
 * "A partial prediction is consistent with the final value": what was shown never has to be taken back, only
 * extended.
 *
 * <ul>
 *   <li>a string is a prefix of the final string and never ends in half a surrogate pair;</li>
 *   <li>an array has at most the final's elements: all but the last equal to the final's, the last consistent;</li>
 *   <li>an object's members are the final's leading members in order: all but the last equal, the last consistent;</li>
 *   <li>numbers, booleans and null equal the final value (they are shown only once complete).</li>
 * </ul>
 */
final class JsonConsistency {

    private JsonConsistency() {}

    static void assertConsistent(JsonNode partial, JsonNode fin, String where) {
        if (partial.isTextual()) {
            assertTrue(fin.isTextual(), where + ": string shown, final is " + fin.getNodeType());
            String text = partial.textValue();
            assertTrue(fin.textValue().startsWith(text), where + ": string is not a prefix of the final");
            assertFalse(!text.isEmpty() && Character.isHighSurrogate(text.charAt(text.length() - 1))
                    && text.length() < fin.textValue().length(), where + ": half a surrogate pair shown");
        } else if (partial.isArray()) {
            assertTrue(fin.isArray() && partial.size() <= fin.size(), where + ": array not a prefix of the final");
            for (int i = 0; i < partial.size(); i++) {
                assertChild(partial.get(i), fin.get(i), i == partial.size() - 1, where + "/" + i);
            }
        } else if (partial.isObject()) {
            assertTrue(fin.isObject() && partial.size() <= fin.size(), where + ": object not a subset of the final");
            Iterator<Map.Entry<String, JsonNode>> finals = fin.fields();
            Iterator<Map.Entry<String, JsonNode>> shown = partial.fields();
            for (int i = 0; shown.hasNext(); i++) {
                Map.Entry<String, JsonNode> member = shown.next();
                Map.Entry<String, JsonNode> expected = finals.next();
                assertEquals(expected.getKey(), member.getKey(), where + ": members out of order");
                assertChild(member.getValue(), expected.getValue(), i == partial.size() - 1, where + "/" + member.getKey());
            }
        } else {
            assertEquals(fin, partial, where + ": scalar differs from the final");
        }
    }

    private static void assertChild(JsonNode partial, JsonNode fin, boolean last, String where) {
        if (last) {
            assertConsistent(partial, fin, where);
        } else {
            assertEquals(fin, partial, where + ": a value followed by a sibling must be complete");
        }
    }
}
