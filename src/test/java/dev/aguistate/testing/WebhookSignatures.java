package dev.aguistate.testing;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A receiver's check of a webhook's signature, written from the scheme docs/threads.md documents (Standard Webhooks
 * 1.0), not from the server's code: the key is the base64 after {@code whsec_}; the signed content is
 * {@code webhook-id.webhook-timestamp.body}; {@code webhook-signature} lists {@code v1,<base64 HMAC-SHA256>}s.
 */
public final class WebhookSignatures {

    private WebhookSignatures() {}

    /** Whether {@code request} is signed with {@code secret}, at a timestamp within five minutes of now. */
    public static boolean verify(String secret, WebhookReceiver.Received request) {
        String id = request.header("webhook-id");
        String timestamp = request.header("webhook-timestamp");
        String signatures = request.header("webhook-signature");
        if (id == null || timestamp == null || signatures == null) {
            return false;
        }
        Instant signedAt = Instant.ofEpochSecond(Long.parseLong(timestamp));
        if (Duration.between(signedAt, Instant.now()).abs().compareTo(Duration.ofMinutes(5)) > 0) {
            return false;
        }
        byte[] expected;
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(Base64.getDecoder().decode(secret.substring("whsec_".length())),
                    "HmacSHA256"));
            expected = mac.doFinal((id + "." + timestamp + "." + request.text()).getBytes(StandardCharsets.UTF_8));
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
        for (String signature : signatures.split(" ")) {
            String[] versioned = signature.split(",", 2);
            if (versioned.length == 2 && versioned[0].equals("v1")
                    && MessageDigest.isEqual(expected, Base64.getDecoder().decode(versioned[1]))) {
                return true;
            }
        }
        return false;
    }
}
