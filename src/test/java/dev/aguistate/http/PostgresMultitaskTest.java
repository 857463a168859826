package dev.aguistate.http;

import dev.aguistate.testing.StoreProfiles;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.extension.ExtendWith;

@QuarkusTest
@TestProfile(StoreProfiles.Users.Postgres.class)
@ExtendWith(StoreProfiles.PostgresReachable.class)
class PostgresMultitaskTest extends MultitaskContract {}
