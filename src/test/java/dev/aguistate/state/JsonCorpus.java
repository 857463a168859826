package dev.aguistate.state;

import dev.aguistate.state.bench.ArgumentShapes;
import java.util.LinkedHashMap;
import java.util.Map;

/** JSON documents that stress streaming: every escape, surrogate pairs, numbers, literals, depth, size, odd names. */
final class JsonCorpus {

    private JsonCorpus() {}

    /** Name → JSON text. Top-level values are objects or arrays, as tool arguments are. */
    static Map<String, String> documents() {
        Map<String, String> documents = new LinkedHashMap<>();
        documents.put("escapes", """
                {"title":"Caf\\u00e9 \\"au\\" lait","note":"a\\nb\\tc \\\\ d \\/ e\\b\\f\\r","q":"\\"","bs":"\\\\"}""");
        documents.put("surrogates", """
                {"escaped":"smile \\uD83D\\uDE00 done","raw":"a\uD83D\uDE00b\uD83E\uDD55","lone":"x\\uD83D","mixed":"\\uD83D\uDE00!"}""");
        documents.put("numbers", """
                {"n":[0,-1,3.14159,-2.5e-3,1E+10,6.02e23,123456789012345678901234567890,-0.0,1e5],"last":42}""");
        documents.put("literals", """
                {"t":true,"f":false,"z":null,"all":[true,false,null],"end":false}""");
        documents.put("empties", """
                {"o":{},"a":[],"s":"","nested":[[],[{}],{"x":[]}],"k":{"":""}}""");
        documents.put("pointerNames", """
                {"a/b":1,"~x":{"c~/d":"v","~1":"not an escape"},"":"empty name","sp ace":[1],"k\\"ey":"\\u00e9"}""");
        documents.put("pretty", """
                {
                  "list" : [ 1 , "two" , { "three" : [ 3 ] } ] ,
                  "flag" : true ,
                  "text" : "spaced\\tout"
                }""");
        documents.put("rootArray", """
                ["a",1,{"b":[null,{"c":"d"}]},[[[]]],-7.5]""");
        documents.put("sameNameNested", """
                {"target":{"target":"inner","list":[{"target":1}]},"other":"x"}""");
        documents.put("deep", deep(60));
        documents.put("longString", longString(10 * 1024));
        documents.put("recipe", ArgumentShapes.RECIPE.json(2 * 1024));
        return documents;
    }

    private static String deep(int depth) {
        return "{\"d\":[".repeat(depth) + "\"bottom\\n\"" + "]}".repeat(depth);
    }

    private static String longString(int length) {
        StringBuilder text = new StringBuilder("{\"body\":\"");
        for (int i = 0; text.length() < length; i++) {
            text.append("line ").append(i).append(i % 7 == 0 ? " \\\"quoted\\\" \\u00e9\\uD83D\\uDE00\\\\" : " plain").append("\\n");
        }
        return text.append("\",\"after\":[1,2]}").toString();
    }
}
