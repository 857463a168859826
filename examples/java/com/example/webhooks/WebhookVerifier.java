package com.example.webhooks;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A receiver's check of a run webhook (docs/threads.md, "Run webhooks"): the Standard Webhooks 1.0 scheme, with the
 * JDK alone.
 */
public final class WebhookVerifier {

    private final byte[] key;

    /** @param secret the webhook's {@code secret}, {@code whsec_…} */
    public WebhookVerifier(String secret) {
        this.key = Base64.getDecoder().decode(secret.substring("whsec_".length()));
    }

    /**
     * @param id         the {@code webhook-id} header
     * @param timestamp  the {@code webhook-timestamp} header
     * @param signatures the {@code webhook-signature} header
     * @param body       the request body exactly as it arrived (not parsed and written again)
     */
    public boolean verify(String id, String timestamp, String signatures, byte[] body)
            throws GeneralSecurityException {
        if (Math.abs(Instant.now().getEpochSecond() - Long.parseLong(timestamp)) > 300) {
            return false; // older than five minutes (or from the future): a replay
        }
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(key, "HmacSHA256"));
        mac.update((id + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8));
        byte[] expected = mac.doFinal(body);
        for (String signature : signatures.split(" ")) {
            if (signature.startsWith("v1,")
                    && MessageDigest.isEqual(expected, Base64.getDecoder().decode(signature.substring(3)))) {
                return true;
            }
        }
        return false;
    }
}
