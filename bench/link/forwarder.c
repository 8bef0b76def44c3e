/*
 * getlist link forwarder: joins a TUN device in the client network namespace to one in the server
 * namespace and emulates, per direction, a drop-tail bottleneck (rate + byte-bounded queue), a
 * fixed one-way delay and seeded random loss. Mahimahi's LinkShell/DelayShell model, in one process.
 *
 * Per direction, a packet that arrives at `now`:
 *   1. is dropped with probability `loss` (droppedLoss);
 *   2. is dropped if queuedBytes + size > queueBytes (droppedQueue), where queuedBytes counts the
 *      packets that have not finished serialising (depart > now), the one on the wire included;
 *   3. else departs at max(now, linkFreeAt) + size*8/rate and is written out at depart + delay.
 * Departure times are non-decreasing and the delay is constant, so each direction is a FIFO and the
 * timer queue is just the head of each ring.
 *
 * Usage: forwarder client-ns=NAME server-ns=NAME dev=NAME seed=N max-seconds=N
 *          up-rate=BPS up-delay-ns=N up-queue=BYTES up-loss=P   (rate 0 = unlimited)
 *          down-rate=BPS down-delay-ns=N down-queue=BYTES down-loss=P
 * stdout: one JSON object per line: {"type":"ready"} once both devices are open, then
 * {"type":"stats",...} on SIGUSR1 and a final one ("final":true) on SIGTERM/SIGINT/SIGHUP or when
 * max-seconds elapse. Errors go to stderr, exit status 1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#define RING_CAP (1u << 16) /* packets in flight per direction; must be a power of two */
#define READ_BATCH 256      /* packets read per device per wake-up, so one side cannot starve the other */
#define MAX_PACKET 65536

typedef struct {
  uint64_t depart, deliver;
  uint32_t len;
  uint8_t *data;
} packet_t;

typedef struct {
  const char *name;
  uint64_t rate_bps, delay_ns, queue_limit, rng;
  double loss;
  int in_fd, out_fd;
  packet_t *ring;
  uint32_t head, dep, tail; /* free-running: head = next to deliver, dep = first not yet departed */
  uint64_t link_free_at, queued_bytes, max_queued_bytes;
  uint64_t packets_in, bytes_in, packets_out, bytes_out;
  uint64_t dropped_loss, dropped_queue, dropped_overflow, dropped_write, ignored;
} direction_t;

static volatile sig_atomic_t stop_requested = 0, dump_requested = 0;
static uint64_t stats_seq = 0, start_ns = 0;

static void on_stop(int sig) { (void)sig; stop_requested = 1; }
static void on_dump(int sig) { (void)sig; dump_requested = 1; }

static void die(const char *what) {
  fprintf(stderr, "forwarder: %s: %s\n", what, strerror(errno));
  exit(1);
}

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* splitmix64: small, seedable, and good enough for Bernoulli loss decisions. */
static double next_uniform(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  return (double)(z >> 11) * (1.0 / 9007199254740992.0);
}

/* Creates TUN device `dev` inside the namespace mounted at /var/run/netns/<ns>. */
static int open_tun_in(const char *ns, const char *dev, int home_ns) {
  char path[512];
  snprintf(path, sizeof path, "/var/run/netns/%s", ns);
  int nsfd = open(path, O_RDONLY | O_CLOEXEC);
  if (nsfd < 0) die(path);
  if (setns(nsfd, CLONE_NEWNET) < 0) die("setns");
  close(nsfd);
  int fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) die("/dev/net/tun");
  struct ifreq ifr;
  memset(&ifr, 0, sizeof ifr);
  ifr.ifr_flags = IFF_TUN | IFF_NO_PI;
  strncpy(ifr.ifr_name, dev, IFNAMSIZ - 1);
  if (ioctl(fd, TUNSETIFF, &ifr) < 0) die("TUNSETIFF");
  if (setns(home_ns, CLONE_NEWNET) < 0) die("setns back");
  return fd;
}

/* Moves `dep` past every packet that has finished serialising by `now`. */
static void advance_departed(direction_t *d, uint64_t now) {
  while (d->dep != d->tail && d->ring[d->dep & (RING_CAP - 1)].depart <= now) {
    d->queued_bytes -= d->ring[d->dep & (RING_CAP - 1)].len;
    d->dep++;
  }
}

static void enqueue(direction_t *d, const uint8_t *buf, uint32_t len, uint64_t now) {
  if (len < 20 || (buf[0] >> 4) != 4) { d->ignored++; return; } /* IPv4 only */
  d->packets_in++;
  d->bytes_in += len;
  advance_departed(d, now);
  if (d->loss > 0 && next_uniform(&d->rng) < d->loss) { d->dropped_loss++; return; }
  if (d->queued_bytes + len > d->queue_limit) { d->dropped_queue++; return; }
  if (d->tail - d->head == RING_CAP) { d->dropped_overflow++; return; }
  uint8_t *copy = malloc(len);
  if (!copy) { d->dropped_overflow++; return; }
  memcpy(copy, buf, len);
  uint64_t start = now > d->link_free_at ? now : d->link_free_at;
  uint64_t serialise = d->rate_bps ? (uint64_t)len * 8ull * 1000000000ull / d->rate_bps : 0;
  packet_t *p = &d->ring[d->tail & (RING_CAP - 1)];
  p->depart = start + serialise;
  p->deliver = p->depart + d->delay_ns;
  p->len = len;
  p->data = copy;
  d->tail++;
  d->link_free_at = p->depart;
  d->queued_bytes += len;
  if (d->queued_bytes > d->max_queued_bytes) d->max_queued_bytes = d->queued_bytes;
}

static void read_arrivals(direction_t *d) {
  static uint8_t buf[MAX_PACKET];
  for (int i = 0; i < READ_BATCH; i++) {
    ssize_t n = read(d->in_fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EAGAIN || errno == EINTR) return;
      die("read");
    }
    enqueue(d, buf, (uint32_t)n, now_ns());
  }
}

static void deliver_due(direction_t *d, uint64_t now) {
  advance_departed(d, now);
  while (d->head != d->dep && d->ring[d->head & (RING_CAP - 1)].deliver <= now) {
    packet_t *p = &d->ring[d->head & (RING_CAP - 1)];
    if (write(d->out_fd, p->data, p->len) == (ssize_t)p->len) {
      d->packets_out++;
      d->bytes_out += p->len;
    } else {
      d->dropped_write++;
    }
    free(p->data);
    p->data = NULL;
    d->head++;
  }
}

static void print_direction(const direction_t *d) {
  printf("\"%s\":{\"packetsIn\":%llu,\"bytesIn\":%llu,\"packetsOut\":%llu,\"bytesOut\":%llu,"
         "\"droppedLoss\":%llu,\"droppedQueue\":%llu,\"droppedOverflow\":%llu,\"droppedWrite\":%llu,"
         "\"ignored\":%llu,\"queuedBytes\":%llu,\"maxQueuedBytes\":%llu,\"inFlight\":%u}",
         d->name, (unsigned long long)d->packets_in, (unsigned long long)d->bytes_in,
         (unsigned long long)d->packets_out, (unsigned long long)d->bytes_out,
         (unsigned long long)d->dropped_loss, (unsigned long long)d->dropped_queue,
         (unsigned long long)d->dropped_overflow, (unsigned long long)d->dropped_write,
         (unsigned long long)d->ignored, (unsigned long long)d->queued_bytes,
         (unsigned long long)d->max_queued_bytes, d->tail - d->head);
}

static void print_stats(const direction_t *up, const direction_t *down, int final) {
  printf("{\"type\":\"stats\",\"seq\":%llu,\"final\":%s,\"elapsedNs\":%llu,",
         (unsigned long long)++stats_seq, final ? "true" : "false",
         (unsigned long long)(now_ns() - start_ns));
  print_direction(up);
  printf(",");
  print_direction(down);
  printf("}\n");
  fflush(stdout);
}

static const char *arg(int argc, char **argv, const char *key) {
  size_t k = strlen(key);
  for (int i = 1; i < argc; i++)
    if (strncmp(argv[i], key, k) == 0 && argv[i][k] == '=') return argv[i] + k + 1;
  fprintf(stderr, "forwarder: missing argument %s=\n", key);
  exit(2);
}

static uint64_t arg_u64(int argc, char **argv, const char *key) {
  return strtoull(arg(argc, argv, key), NULL, 10);
}

static void configure(direction_t *d, const char *name, int argc, char **argv, uint64_t seed) {
  char key[32];
  memset(d, 0, sizeof *d);
  d->name = name;
  snprintf(key, sizeof key, "%s-rate", name);
  d->rate_bps = arg_u64(argc, argv, key);
  snprintf(key, sizeof key, "%s-delay-ns", name);
  d->delay_ns = arg_u64(argc, argv, key);
  snprintf(key, sizeof key, "%s-queue", name);
  d->queue_limit = arg_u64(argc, argv, key);
  snprintf(key, sizeof key, "%s-loss", name);
  d->loss = strtod(arg(argc, argv, key), NULL);
  d->rng = seed;
  d->ring = calloc(RING_CAP, sizeof(packet_t));
  if (!d->ring) die("calloc");
}

int main(int argc, char **argv) {
  /* Die with the Node process that started us, so a crashed run leaves no forwarder behind. */
  pid_t parent = getppid();
  prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (getppid() != parent) return 1;
  prctl(PR_SET_TIMERSLACK, 1UL); /* ppoll wake-ups to within microseconds, not the default 50 µs */
  setpriority(PRIO_PROCESS, 0, -10); /* best effort: timing matters more than fairness here */

  uint64_t seed = arg_u64(argc, argv, "seed");
  uint64_t max_ns = arg_u64(argc, argv, "max-seconds") * 1000000000ull;
  direction_t up, down;
  configure(&up, "up", argc, argv, seed ^ 0x75700000u);
  configure(&down, "down", argc, argv, seed ^ 0x646f776eu);

  int home_ns = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
  if (home_ns < 0) die("/proc/self/ns/net");
  const char *dev = arg(argc, argv, "dev");
  int client_fd = open_tun_in(arg(argc, argv, "client-ns"), dev, home_ns);
  int server_fd = open_tun_in(arg(argc, argv, "server-ns"), dev, home_ns);
  up.in_fd = client_fd, up.out_fd = server_fd;
  down.in_fd = server_fd, down.out_fd = client_fd;

  /* Signals stay blocked except inside ppoll, so a flag set by a handler is never missed. */
  sigset_t blocked, during_poll;
  sigemptyset(&blocked);
  sigaddset(&blocked, SIGTERM);
  sigaddset(&blocked, SIGINT);
  sigaddset(&blocked, SIGHUP);
  sigaddset(&blocked, SIGUSR1);
  sigprocmask(SIG_BLOCK, &blocked, &during_poll);
  sigdelset(&during_poll, SIGTERM);
  sigdelset(&during_poll, SIGINT);
  sigdelset(&during_poll, SIGHUP);
  sigdelset(&during_poll, SIGUSR1);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_stop;
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGHUP, &sa, NULL);
  sa.sa_handler = on_dump;
  sigaction(SIGUSR1, &sa, NULL);

  start_ns = now_ns();
  printf("{\"type\":\"ready\",\"pid\":%d}\n", (int)getpid());
  fflush(stdout);

  struct pollfd fds[2] = {{client_fd, POLLIN, 0}, {server_fd, POLLIN, 0}};
  while (!stop_requested) {
    uint64_t now = now_ns();
    if (now - start_ns >= max_ns) break;
    deliver_due(&up, now);
    deliver_due(&down, now);
    if (dump_requested) { dump_requested = 0; print_stats(&up, &down, 0); }

    uint64_t next = start_ns + max_ns;
    if (up.head != up.tail && up.ring[up.head & (RING_CAP - 1)].deliver < next)
      next = up.ring[up.head & (RING_CAP - 1)].deliver;
    if (down.head != down.tail && down.ring[down.head & (RING_CAP - 1)].deliver < next)
      next = down.ring[down.head & (RING_CAP - 1)].deliver;
    now = now_ns();
    uint64_t wait = next > now ? next - now : 0;
    struct timespec timeout = {(time_t)(wait / 1000000000ull), (long)(wait % 1000000000ull)};
    int ready = ppoll(fds, 2, &timeout, &during_poll);
    if (ready < 0) {
      if (errno == EINTR) continue;
      die("ppoll");
    }
    if (fds[0].revents & (POLLERR | POLLHUP | POLLNVAL)) { errno = EIO; die("client tun"); }
    if (fds[1].revents & (POLLERR | POLLHUP | POLLNVAL)) { errno = EIO; die("server tun"); }
    if (fds[0].revents & POLLIN) read_arrivals(&up);
    if (fds[1].revents & POLLIN) read_arrivals(&down);
  }
  print_stats(&up, &down, 1);
  return 0;
}
