package dev.aguistate.run.request;

import dev.aguistate.protocol.Message;
import java.util.ArrayList;
import java.util.List;

/**
 * The thread's summary of its earlier conversation, as the run shows it to the LLM in place of the messages it
 * covers: every message up to and including {@code throughMessageId}.
 */
public record PriorSummary(String text, String throughMessageId) {

    static final String INTRODUCTION = "Summary of the earlier conversation (its messages are not shown):\n";

    /**
     * The conversation with the covered messages taken out, except system and developer messages, which the LLM
     * always gets as they are; null when the transcript lacks the covered message (a rewind dropped it), so the
     * summary does not apply.
     */
    List<Message> uncovered(List<Message> transcript) {
        for (int i = 0; i < transcript.size(); i++) {
            if (transcript.get(i).id().equals(throughMessageId)) {
                List<Message> rest = new ArrayList<>(transcript.size() - i);
                transcript.subList(0, i + 1).stream()
                        .filter(m -> m instanceof Message.System || m instanceof Message.Developer)
                        .forEach(rest::add);
                rest.addAll(transcript.subList(i + 1, transcript.size()));
                return rest;
            }
        }
        return null;
    }

    String message() {
        return INTRODUCTION + text;
    }
}
