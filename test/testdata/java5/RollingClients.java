import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.remoting.exception.RemotingConnectException;
import org.apache.rocketmq.remoting.exception.RemotingSendRequestException;

/**
 * The Java side of the rolling restart test (test/java5_rolling_test.go):
 * a push consumer of every topic, and rounds that each start a producer of
 * their own (a fresh client instance, which picks its NameServer and has no
 * route cached), ask the NameServers for every topic's queues and send one
 * message to each. It runs rounds until its standard input closes, then
 * waits (at most 60 s) for the consumer to have every message sent, and
 * prints its counts.
 *
 * Arguments: namesrvAddr (a;b) and the topics, comma separated.
 * Output: "ROUND n" after each round, "ERR ..." for the first errors, then
 * one "TOTAL key=value ..." line. A route query that could not connect (the
 * client's chosen NameServer is down: a fresh Java client asks the one it
 * picked and no other for that query) is routeConnectErrors, apart from
 * answers: TOPIC_NOT_EXIST (routeNotExist) or another code (routeOtherErrors).
 * A send whose own route query died with a NameServer being stopped (the
 * connection to one of namesrvAddr refused or broken mid-request) is
 * sendsNameServerDown, not sendsFailed: the client met a dead server, not a
 * missing route.
 */
public class RollingClients {
    private static final int TOPIC_NOT_EXIST = 17;

    private final AtomicLong routeQueries = new AtomicLong();
    private final AtomicLong routeNotExist = new AtomicLong();
    private final AtomicLong routeConnectErrors = new AtomicLong();
    private final AtomicLong routeOtherErrors = new AtomicLong();
    private final AtomicLong sends = new AtomicLong();
    private final AtomicLong sendsFailed = new AtomicLong();
    private final AtomicLong sendsNoRoute = new AtomicLong();
    private final AtomicLong sendsNameServerDown = new AtomicLong();
    private final AtomicLong errorsShown = new AtomicLong();
    private final Set<String> sent = ConcurrentHashMap.newKeySet();
    private final Set<String> consumed = ConcurrentHashMap.newKeySet();

    public static void main(String[] args) throws Exception {
        new RollingClients().run(args[0], args[1].split(","));
        System.exit(0);
    }

    private void run(String namesrv, String[] topics) throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        Thread stdin = new Thread(() -> {
            try {
                InputStream in = System.in;
                while (in.read() >= 0) {
                    // only the end matters
                }
            } catch (Exception ignored) {
                // a closed stream is the end too
            }
            stop.set(true);
        });
        stdin.setDaemon(true);
        stdin.start();

        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer("rolling_consumer");
        consumer.setNamesrvAddr(namesrv);
        consumer.setInstanceName("rolling-consumer");
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        for (String topic : topics) {
            consumer.subscribe(topic, "*");
        }
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, context) -> {
            for (MessageExt m : msgs) {
                consumed.add(m.getKeys());
            }
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();

        for (int round = 0; !stop.get(); round++) {
            round(namesrv, topics, round);
            System.out.println("ROUND " + round);
            System.out.flush();
            Thread.sleep(20);
        }

        long deadline = System.currentTimeMillis() + 60_000;
        while (!consumed.containsAll(sent) && System.currentTimeMillis() < deadline) {
            Thread.sleep(100);
        }
        long missing = sent.stream().filter(k -> !consumed.contains(k)).count();
        consumer.shutdown();
        System.out.println("TOTAL routeQueries=" + routeQueries + " routeNotExist=" + routeNotExist
            + " routeConnectErrors=" + routeConnectErrors + " routeOtherErrors=" + routeOtherErrors + " sends=" + sends + " sendsFailed=" + sendsFailed
            + " sendsNoRoute=" + sendsNoRoute + " sendsNameServerDown=" + sendsNameServerDown + " sentOk=" + sent.size() + " notConsumed=" + missing);
        System.out.flush();
    }

    private void round(String namesrv, String[] topics, int round) {
        DefaultMQProducer producer = new DefaultMQProducer("rolling_producer");
        producer.setNamesrvAddr(namesrv);
        producer.setInstanceName("rolling-" + round);
        producer.setSendMsgTimeout(5000);
        try {
            producer.start();
        } catch (MQClientException e) {
            sends.addAndGet(topics.length);
            sendsFailed.addAndGet(topics.length);
            show("producer start", e);
            return;
        }
        try {
            for (String topic : topics) {
                routeQueries.incrementAndGet();
                try {
                    producer.fetchPublishMessageQueues(topic);
                } catch (MQClientException e) {
                    if (responseCode(e) == TOPIC_NOT_EXIST) {
                        routeNotExist.incrementAndGet();
                    } else if (causedBy(e, RemotingConnectException.class)) {
                        routeConnectErrors.incrementAndGet();
                    } else {
                        routeOtherErrors.incrementAndGet();
                    }
                    show("route of " + topic, e);
                }
                String key = "r" + round + "-" + topic;
                Message msg = new Message(topic, "rolling restart".getBytes());
                msg.setKeys(key);
                sends.incrementAndGet();
                try {
                    SendResult result = producer.send(msg);
                    if (result.getSendStatus() == SendStatus.SEND_OK) {
                        sent.add(key);
                    } else {
                        sendsFailed.incrementAndGet();
                        show("send to " + topic, new IllegalStateException(result.getSendStatus().toString()));
                    }
                } catch (Exception e) {
                    if (nameServerDown(e, namesrv)) {
                        sendsNameServerDown.incrementAndGet();
                        show("send to " + topic + " (a NameServer down)", e);
                        continue;
                    }
                    sendsFailed.incrementAndGet();
                    if (String.valueOf(e.getMessage()).contains("No route info")) {
                        sendsNoRoute.incrementAndGet();
                    }
                    show("send to " + topic, e);
                }
            }
        } finally {
            producer.shutdown();
        }
    }

    /** The response code of the first MQClientException in e's causes that has one. */
    private static int responseCode(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof MQClientException && ((MQClientException) c).getResponseCode() > 0) {
                return ((MQClientException) c).getResponseCode();
            }
        }
        return -1;
    }

    /** Whether e comes from a connection to one of namesrv's addresses that failed. */
    private static boolean nameServerDown(Throwable e, String namesrv) {
        if (!causedBy(e, RemotingConnectException.class) && !causedBy(e, RemotingSendRequestException.class)) {
            return false;
        }
        for (Throwable c = e; c != null; c = c.getCause()) {
            for (String addr : namesrv.split(";")) {
                if (String.valueOf(c.getMessage()).contains(addr)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean causedBy(Throwable e, Class<? extends Throwable> kind) {
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (kind.isInstance(c)) {
                return true;
            }
        }
        return false;
    }

    private void show(String what, Throwable e) {
        if (errorsShown.incrementAndGet() > 10) {
            return;
        }
        List<String> causes = new ArrayList<>();
        for (Throwable c = e; c != null; c = c.getCause()) {
            causes.add(c.getClass().getSimpleName() + ": " + c.getMessage());
        }
        System.out.println("ERR " + what + ": " + String.join(" <- ", causes).replace('\n', ' '));
        System.out.flush();
    }
}
