// An in-memory user store for a Java 5.3.3 broker: a broker with
// innerClientAuthenticationCredentials keeps them as a user of its auth
// store, and the only store 5.3.3 ships (LocalAuthenticationMetadataProvider)
// needs RocksDB's native library, which the test build stubs. Compiled by
// test/java5_acl_test.go; nothing else uses it.
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.apache.rocketmq.auth.authentication.model.User;
import org.apache.rocketmq.auth.authentication.provider.AuthenticationMetadataProvider;
import org.apache.rocketmq.auth.config.AuthConfig;

public class MemoryAuthenticationMetadataProvider implements AuthenticationMetadataProvider {
    private final Map<String, User> users = new ConcurrentHashMap<>();

    public void initialize(AuthConfig authConfig, Supplier<?> metadataService) {
    }

    public void shutdown() {
    }

    public CompletableFuture<Void> createUser(User user) {
        users.put(user.getUsername(), user);
        return CompletableFuture.completedFuture(null);
    }

    public CompletableFuture<Void> deleteUser(String username) {
        users.remove(username);
        return CompletableFuture.completedFuture(null);
    }

    public CompletableFuture<Void> updateUser(User user) {
        return createUser(user);
    }

    public CompletableFuture<User> getUser(String username) {
        return CompletableFuture.completedFuture(users.get(username));
    }

    public CompletableFuture<List<User>> listUser(String filter) {
        return CompletableFuture.completedFuture(new ArrayList<>(users.values()));
    }
}
