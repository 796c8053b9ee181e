/**
 * The EventLog contract run against KafkaEventLog over the in-memory fake of the client
 * library: it checks the fake behaves like a broker where the adapter relies on it, so the
 * fault-injection tests (kafkaFaults.unit.spec.ts) start from a faithful baseline. The
 * same contract runs against a real broker in kafkaEventLog.int.spec.ts.
 */
import { KafkaEventLog } from '../../src/events/kafka/KafkaEventLog.js';
import { eventLogContract, reopenable } from '../support/eventLog.contract.js';
import { FakeKafkaCluster } from '../support/fakeKafka.js';

eventLogContract('KafkaEventLog on a fake broker', async () => {
  const cluster = new FakeKafkaCluster();
  const open = async () => {
    const log = new KafkaEventLog({
      brokers: ['broker-1:9092'],
      replicationFactor: 1,
      logLevel: 'nothing',
      client: cluster.client,
      onSubscriptionError: () => {},
    });
    await log.open();
    return log;
  };
  return reopenable(open);
});
