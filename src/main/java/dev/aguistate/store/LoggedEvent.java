package dev.aguistate.store;

/**
 * One entry of a run's event log: its place in the run ({@code seq}: 1, 2, … without gaps; 0 is the run's base,
 * never streamed) and its JSON, exactly as the SSE frame's {@code data:} carries it.
 */
public record LoggedEvent(long seq, String json) {}
