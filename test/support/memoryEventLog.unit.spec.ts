import { eventLogContract } from './eventLog.contract.js';
import { MemoryEventLog, MemoryEventStorage } from './MemoryEventLog.js';

// The decider tests trust this test double to behave like the real logs: it passes the port's contract.
eventLogContract('MemoryEventLog', async () => {
  const storage = new MemoryEventStorage();
  let log = new MemoryEventLog(storage);
  await log.open();
  const fixture = {
    log,
    async reopen() {
      await log.close();
      log = new MemoryEventLog(storage);
      await log.open();
      fixture.log = log;
      return log;
    },
    async cleanup() {
      await log.close();
    },
  };
  return fixture;
});
