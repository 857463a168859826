package dev.aguistate.protocol;

/** A piece of application context the client wants the agent to know, e.g. ("Name of the user", "Bob"). */
public record Context(String description, String value) {}
