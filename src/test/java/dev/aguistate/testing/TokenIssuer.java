package dev.aguistate.testing;

import com.sun.net.httpserver.HttpServer;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.interfaces.RSAPublicKey;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.jose4j.jwa.AlgorithmConstraints;
import org.jose4j.jwk.JsonWebKeySet;
import org.jose4j.jwk.RsaJsonWebKey;
import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.NumericDate;
import org.jose4j.lang.JoseException;

/**
 * An identity provider for tests: RSA key pairs made here, tokens signed with them (jose4j, independently of the
 * server's verification), its public key as a PEM file, and its key set (JWKS) served over HTTP at 127.0.0.1 —
 * whose keys a test can rotate. {@link Pem} and {@link Jwks} point the server's {@code mp.jwt.verify.*} at one or the
 * other.
 */
public final class TokenIssuer {

    public static final String ISSUER = "https://issuer.test";
    public static final String AUDIENCE = "agui-test";
    public static final String TENANT_CLAIM = "tenant";

    private static volatile TokenIssuer current;

    private final HttpServer jwksServer;
    private final AtomicInteger jwksFetches = new AtomicInteger();
    private volatile long lastJwksFetchNanos;
    private final AtomicInteger keysMade = new AtomicInteger();
    private volatile List<SigningKey> published;
    private volatile SigningKey signing;
    private final Path publicKeyPem;

    private TokenIssuer() throws IOException {
        signing = new SigningKey("k" + keysMade.incrementAndGet(), newKeyPair());
        published = List.of(signing);
        publicKeyPem = Files.createTempFile("issuer-public", ".pem");
        Files.writeString(publicKeyPem, "-----BEGIN PUBLIC KEY-----\n"
                + Base64.getMimeEncoder().encodeToString(signing.pair().getPublic().getEncoded())
                + "\n-----END PUBLIC KEY-----\n");
        jwksServer = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        jwksServer.createContext("/jwks", exchange -> {
            jwksFetches.incrementAndGet();
            lastJwksFetchNanos = System.nanoTime();
            byte[] body = jwks(published).getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        jwksServer.start();
    }

    /** The issuer the running application trusts. */
    public static TokenIssuer current() {
        if (current == null) {
            throw new IllegalStateException("no token issuer: the test profile must use TokenIssuer.Pem or .Jwks");
        }
        return current;
    }

    public static KeyPair newKeyPair() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            return generator.generateKeyPair();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A key pair and the id ({@code kid}) tokens name it by. */
    public record SigningKey(String kid, KeyPair pair) {}

    private static String jwks(List<SigningKey> keys) {
        JsonWebKeySet set = new JsonWebKeySet();
        for (SigningKey key : keys) {
            RsaJsonWebKey jwk = new RsaJsonWebKey((RSAPublicKey) key.pair().getPublic());
            jwk.setKeyId(key.kid());
            jwk.setAlgorithm(AlgorithmIdentifiers.RSA_USING_SHA256);
            jwk.setUse("sig");
            set.addJsonWebKey(jwk);
        }
        return set.toJson();
    }

    /** From now on tokens are signed with a new key, and the key set publishes only that one. */
    public SigningKey rotate() {
        SigningKey next = new SigningKey("k" + keysMade.incrementAndGet(), newKeyPair());
        signing = next;
        published = List.of(next);
        return next;
    }

    public int jwksFetches() {
        return jwksFetches.get();
    }

    /**
     * Returns once the key set was last read at least {@code age} ago: a rotation a server can see. jose4j does not
     * read a key set again within 300 ms of reading it, and smallrye-jwt counts that skipped read as its one forced
     * refresh per {@code smallrye.jwt.jwks.forced-refresh-interval} (docs/auth.md).
     */
    public void awaitKeySetOlderThan(Duration age) throws InterruptedException {
        long left;
        while ((left = age.toNanos() - (System.nanoTime() - lastJwksFetchNanos)) > 0) {
            TimeUnit.NANOSECONDS.sleep(left);
        }
    }

    /** The claims of a valid token for {@code user} of {@code tenant} (null: no tenant claim). */
    public static JwtClaims claims(String user, String tenant) {
        JwtClaims claims = new JwtClaims();
        claims.setIssuer(ISSUER);
        claims.setAudience(AUDIENCE);
        claims.setSubject(user);
        claims.setIssuedAtToNow();
        claims.setExpirationTime(NumericDate.fromSeconds(Instant.now().plusSeconds(600).getEpochSecond()));
        if (tenant != null) {
            claims.setClaim(TENANT_CLAIM, tenant);
        }
        return claims;
    }

    /** A valid token for {@code user} of {@code tenant}. */
    public String token(String user, String tenant) {
        return sign(claims(user, tenant), signing);
    }

    /** A valid token's claims, changed by {@code change}, signed with the issuer's current key. */
    public String token(String user, String tenant, Consumer<JwtClaims> change) {
        JwtClaims claims = claims(user, tenant);
        change.accept(claims);
        return sign(claims, signing);
    }

    /** The key tokens are signed with now. */
    public SigningKey signingKey() {
        return signing;
    }

    /** {@code claims} signed RS256 with {@code key}, its key id in the header. */
    public static String sign(JwtClaims claims, SigningKey key) {
        JsonWebSignature jws = new JsonWebSignature();
        jws.setPayload(claims.toJson());
        jws.setKey(key.pair().getPrivate());
        jws.setKeyIdHeaderValue(key.kid());
        jws.setAlgorithmHeaderValue(AlgorithmIdentifiers.RSA_USING_SHA256);
        try {
            return jws.getCompactSerialization();
        } catch (JoseException e) {
            throw new IllegalStateException(e);
        }
    }

    /** An unsigned token ({@code "alg":"none"}) with valid claims. */
    public static String unsigned(String user, String tenant) {
        JsonWebSignature jws = new JsonWebSignature();
        jws.setPayload(claims(user, tenant).toJson());
        jws.setAlgorithmConstraints(AlgorithmConstraints.NO_CONSTRAINTS);
        jws.setAlgorithmHeaderValue(AlgorithmIdentifiers.NONE);
        try {
            return jws.getCompactSerialization();
        } catch (JoseException e) {
            throw new IllegalStateException(e);
        }
    }

    private void stop() {
        jwksServer.stop(0);
        try {
            Files.deleteIfExists(publicKeyPem);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private abstract static class Resource implements QuarkusTestResourceLifecycleManager {

        abstract String keyLocation(TokenIssuer issuer);

        @Override
        public Map<String, String> start() {
            try {
                current = new TokenIssuer();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return Map.of(
                    "mp.jwt.verify.publickey.location", keyLocation(current),
                    "mp.jwt.verify.issuer", ISSUER,
                    "mp.jwt.verify.audiences", AUDIENCE,
                    "mp.jwt.verify.clock.skew", "5");
        }

        @Override
        public void stop() {
            if (current != null) {
                current.stop();
                current = null;
            }
        }
    }

    /** The server verifies tokens with the issuer's public key, from a PEM file. */
    public static final class Pem extends Resource {
        @Override
        String keyLocation(TokenIssuer issuer) {
            return issuer.publicKeyPem.toUri().toString();
        }
    }

    /** The server verifies tokens with the issuer's key set, fetched from its HTTP endpoint. */
    public static final class Jwks extends Resource {
        @Override
        String keyLocation(TokenIssuer issuer) {
            return "http://127.0.0.1:" + issuer.jwksServer.getAddress().getPort() + "/jwks";
        }
    }
}
