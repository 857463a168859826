package dev.aguistate.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.aguistate.protocol.InputContent;
import dev.aguistate.protocol.MessageContent;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

@Execution(ExecutionMode.CONCURRENT)
class ResultLimitTest {

    private static final ResultLimit LIMIT = new ResultLimit(10);

    private static InputContent image(int base64Chars) {
        return new InputContent.MediaPart("image", new InputContent.Source("data", "A".repeat(base64Chars), "image/png"),
                null);
    }

    @Test
    void aResultWithinTheLimitIsKeptAsItIs() {
        MessageContent parts = new MessageContent.Parts(List.of(new InputContent.TextPart("see:"), image(6)));
        assertSame(parts, LIMIT.cut(parts));
        assertEquals("0123456789", LIMIT.cut("0123456789"));
    }

    @Test
    void aLongTextIsCutAtTheLimitWithANoteSayingHowLongItWas() {
        assertEquals("0123456789\n[The result was cut here: it had 12 characters, and tools may return at most 10"
                + " (agui.tools.max-result-chars).]", LIMIT.cut("0123456789ab"));
    }

    @Test
    void partsPastTheLimitAreLeftOutWholeExceptTextWhichIsCut() {
        MessageContent cut = LIMIT.cut(new MessageContent.Parts(List.of(new InputContent.TextPart("abc"), image(20),
                new InputContent.TextPart("never"))));

        List<InputContent> parts = ((MessageContent.Parts) cut).parts();
        assertEquals(2, parts.size(), "the image that does not fit and all after it are left out");
        assertEquals("abc", ((InputContent.TextPart) parts.get(0)).text());
        assertEquals("[The result was cut here: it had 28 characters, and tools may return at most 10"
                + " (agui.tools.max-result-chars).]", ((InputContent.TextPart) parts.get(1)).text());

        MessageContent text = LIMIT.cut(new MessageContent.Parts(List.of(image(4), new InputContent.TextPart("0123456789"))));
        assertEquals("012345", ((InputContent.TextPart) ((MessageContent.Parts) text).parts().get(1)).text(),
                "a text part is cut to what is left");
    }
}
