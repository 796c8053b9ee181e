/*
 * A Kafka cluster for tests: librdkafka's mock cluster (it speaks the real wire protocol
 * on loopback TCP), driven line by line from stdin so a test can take brokers down, push
 * request errors or move coordinators while a client talks to it.
 *
 *   mock-broker <brokers>
 *
 * Prints the bootstrap list ("host:port,host:port") as its first line, then answers each
 * command with one line, "ok" or "error <why>", so the driver knows when it took effect:
 *
 *   down <brokerId>                       disconnect it and refuse new connections (-1: all)
 *   up <brokerId>                         accept connections again (-1: all)
 *   errors <apiKey> <count> <err>...      the next <count> requests of that API fail with
 *                                         these errors, in order (cluster-wide)
 *   broker-errors <brokerId> <apiKey> <count> <err>...   the same, on one broker only
 *   clear-errors <apiKey>                 forget the errors still pushed for that API
 *   coordinator <transaction|group> <key> <brokerId>
 *   topic <name> <partitions> <replication>
 *   leader <topic> <partition> <brokerId> (-1: leaderless)
 *   rtt <brokerId> <ms>
 *   apiversion <apiKey> <min> <max>       (-1 -1: the API is unsupported)
 *   quit                                  (EOF too)
 *
 * An <err> is a number (3) or a name without its prefix (NOT_COORDINATOR,
 * _TRANSPORT for a disconnect).
 */
#include <errno.h>
#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_WORDS 64

static int parse_int(const char *word, long *out) {
  char *end;
  errno = 0;
  *out = strtol(word, &end, 10);
  return errno == 0 && end != word && *end == '\0';
}

static int parse_error(const char *word, rd_kafka_resp_err_t *out) {
  long number;
  if (parse_int(word, &number)) {
    *out = (rd_kafka_resp_err_t)number;
    return 1;
  }
  const struct rd_kafka_err_desc *descs;
  size_t count;
  rd_kafka_get_err_descs(&descs, &count);
  for (size_t i = 0; i < count; i++) {
    if (descs[i].name && strcmp(descs[i].name, word) == 0) {
      *out = descs[i].code;
      return 1;
    }
  }
  return 0;
}

/* Pushes errors words[first..n) for apiKey, on one broker (brokerId >= 0) or the cluster. */
static const char *push_errors(rd_kafka_mock_cluster_t *cluster, long brokerId, char **words, int n, int first) {
  long apiKey, count;
  if (n < first + 2 || !parse_int(words[first], &apiKey) || !parse_int(words[first + 1], &count)) return "usage";
  if (count != n - first - 2) return "count does not match the errors given";
  rd_kafka_resp_err_t errors[MAX_WORDS];
  for (long i = 0; i < count; i++) {
    if (!parse_error(words[first + 2 + i], &errors[i])) return "unknown error";
  }
  if (brokerId < 0) {
    rd_kafka_mock_push_request_errors_array(cluster, (int16_t)apiKey, (size_t)count, errors);
    return NULL;
  }
  for (long i = 0; i < count; i++) {
    rd_kafka_resp_err_t err = rd_kafka_mock_broker_push_request_error_rtts(cluster, (int32_t)brokerId, (int16_t)apiKey, 1, errors[i], 0);
    if (err) return rd_kafka_err2name(err);
  }
  return NULL;
}

/* Runs one command; NULL when it took effect, else why not. */
static const char *run(rd_kafka_mock_cluster_t *cluster, char **w, int n) {
  long a, b, c;
  rd_kafka_resp_err_t err = RD_KAFKA_RESP_ERR_NO_ERROR;
  const char *cmd = w[0];
  if (strcmp(cmd, "down") == 0 && n == 2 && parse_int(w[1], &a)) {
    err = rd_kafka_mock_broker_set_down(cluster, (int32_t)a);
  } else if (strcmp(cmd, "up") == 0 && n == 2 && parse_int(w[1], &a)) {
    err = rd_kafka_mock_broker_set_up(cluster, (int32_t)a);
  } else if (strcmp(cmd, "errors") == 0) {
    return push_errors(cluster, -1, w, n, 1);
  } else if (strcmp(cmd, "broker-errors") == 0 && n >= 2 && parse_int(w[1], &a) && a >= 0) {
    return push_errors(cluster, a, w, n, 2);
  } else if (strcmp(cmd, "clear-errors") == 0 && n == 2 && parse_int(w[1], &a)) {
    rd_kafka_mock_clear_request_errors(cluster, (int16_t)a);
  } else if (strcmp(cmd, "coordinator") == 0 && n == 4 && parse_int(w[3], &a)) {
    err = rd_kafka_mock_coordinator_set(cluster, w[1], w[2], (int32_t)a);
  } else if (strcmp(cmd, "topic") == 0 && n == 4 && parse_int(w[2], &a) && parse_int(w[3], &b)) {
    err = rd_kafka_mock_topic_create(cluster, w[1], (int)a, (int)b);
  } else if (strcmp(cmd, "leader") == 0 && n == 4 && parse_int(w[2], &a) && parse_int(w[3], &b)) {
    err = rd_kafka_mock_partition_set_leader(cluster, w[1], (int32_t)a, (int32_t)b);
  } else if (strcmp(cmd, "rtt") == 0 && n == 3 && parse_int(w[1], &a) && parse_int(w[2], &b)) {
    err = rd_kafka_mock_broker_set_rtt(cluster, (int32_t)a, (int)b);
  } else if (strcmp(cmd, "apiversion") == 0 && n == 4 && parse_int(w[1], &a) && parse_int(w[2], &b) && parse_int(w[3], &c)) {
    err = rd_kafka_mock_set_apiversion(cluster, (int16_t)a, (int16_t)b, (int16_t)c);
  } else {
    return "unknown command or wrong arguments";
  }
  return err ? rd_kafka_err2name(err) : NULL;
}

int main(int argc, char **argv) {
  long brokers = 1;
  if (argc > 2 || (argc == 2 && (!parse_int(argv[1], &brokers) || brokers < 1))) {
    fprintf(stderr, "usage: %s [brokers]\n", argv[0]);
    return 2;
  }
  char why[512];
  rd_kafka_conf_t *conf = rd_kafka_conf_new();
  /* The cluster needs a client handle for its own bookkeeping only; keep it quiet. */
  rd_kafka_conf_set(conf, "log_level", "0", why, sizeof(why));
  rd_kafka_t *handle = rd_kafka_new(RD_KAFKA_PRODUCER, conf, why, sizeof(why));
  if (!handle) {
    fprintf(stderr, "rd_kafka_new: %s\n", why);
    return 1;
  }
  rd_kafka_mock_cluster_t *cluster = rd_kafka_mock_cluster_new(handle, (int)brokers);
  if (!cluster) {
    fprintf(stderr, "rd_kafka_mock_cluster_new failed\n");
    return 1;
  }
  printf("%s\n", rd_kafka_mock_cluster_bootstraps(cluster));
  fflush(stdout);

  char line[4096];
  while (fgets(line, sizeof(line), stdin)) {
    char *words[MAX_WORDS];
    int n = 0;
    for (char *tok = strtok(line, " \t\r\n"); tok && n < MAX_WORDS; tok = strtok(NULL, " \t\r\n")) words[n++] = tok;
    if (n == 0) continue;
    if (strcmp(words[0], "quit") == 0) break;
    const char *failure = run(cluster, words, n);
    if (failure) printf("error %s\n", failure);
    else printf("ok\n");
    fflush(stdout);
  }
  rd_kafka_mock_cluster_destroy(cluster);
  rd_kafka_destroy(handle);
  return 0;
}
