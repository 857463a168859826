package dev.aguistate.agent;

import java.util.Map;
import java.util.Objects;

/**
 * The words of a confirmation: the question the user sees ({@code request}, the interrupt's {@code message}), and
 * what the LLM is told when the user approved ({@code approved}, before the tool's own result) or declined
 * ({@code declined}, the declined call's result). The presets follow the Microsoft Agent Framework's confirmation
 * strategies.
 */
public record ConfirmationMessages(String request, String approved, String declined) {

    public static final ConfirmationMessages GENERIC = new ConfirmationMessages(
            "Apply these changes?",
            "The user approved the change.",
            "The user declined the change, so nothing was changed. Do not make it again unless the user asks.");

    public static final ConfirmationMessages RECIPE = new ConfirmationMessages(
            "Put this recipe on your card?",
            "The user approved the recipe.",
            "The user rejected the recipe, so the card keeps the previous one. Ask what they would like instead.");

    public static final ConfirmationMessages DOCUMENT = new ConfirmationMessages(
            "Keep these changes to the document?",
            "The user approved the changes to the document.",
            "The user rejected the changes, so the document is as it was before. Ask what they would like instead.");

    public static final ConfirmationMessages TASK_PLANNING = new ConfirmationMessages(
            "Go ahead with these steps?",
            "The user approved the plan.",
            "The user rejected the plan, so none of its steps will be carried out. Ask how to change it.");

    /** The presets by the names an agents file uses. */
    public static final Map<String, ConfirmationMessages> PRESETS = Map.of(
            "generic", GENERIC, "recipe", RECIPE, "document", DOCUMENT, "task-planning", TASK_PLANNING);

    public ConfirmationMessages {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(approved, "approved");
        Objects.requireNonNull(declined, "declined");
    }
}
