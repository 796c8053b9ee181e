/**
 * Waits until a Kafka broker answers a client: `describeCluster` returns a controller
 * (KRaft has elected itself) and the broker itself. Used by scripts/kafka-local.sh after
 * it starts the broker detached.
 *   node --import tsx scripts/kafka/waitForBroker.ts <host:port> <broker pid> <seconds>
 * Exits 0 once it answers; 1 when the process died or the time ran out (the shell script
 * then prints the broker's log).
 */
import { Kafka, logLevel } from 'kafkajs';

const [broker, pidText, secondsText] = process.argv.slice(2);
if (!broker || !pidText || !secondsText) {
  console.error('usage: waitForBroker.ts <host:port> <broker pid> <seconds>');
  process.exit(2);
}
const pid = Number(pidText);
const deadline = Date.now() + Number(secondsText) * 1000;

const alive = (): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

// One attempt per client: kafkajs keeps retrying inside a client, which would hide a dead broker.
const answers = async (): Promise<boolean> => {
  const admin = new Kafka({
    clientId: 'kafka-local-wait',
    brokers: [broker],
    logLevel: logLevel.NOTHING,
    connectionTimeout: 1000,
    requestTimeout: 2000,
    retry: { retries: 0 },
  }).admin();
  try {
    await admin.connect();
    const cluster = await admin.describeCluster();
    return cluster.controller !== null && cluster.controller >= 0 && cluster.brokers.length > 0;
  } catch {
    return false;
  } finally {
    await admin.disconnect().catch(() => {});
  }
};

let lastError = 'no answer yet';
while (Date.now() < deadline) {
  if (!alive()) {
    console.error(`the broker process ${pid} exited`);
    process.exit(1);
  }
  if (await answers()) process.exit(0);
  lastError = `no answer from ${broker}`;
  await new Promise((resolve) => setTimeout(resolve, 250));
}
console.error(`${lastError} within ${secondsText} s`);
process.exit(1);
