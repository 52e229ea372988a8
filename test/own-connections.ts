// A server's graceful stop waits until each keep-alive connection has been idle 200 ms (src/http/
// server.ts), since a client's next request may be on its way. A test knows none is when it
// stops its servers: it closes its fetch's connections first, and the stop has none to wait out.
import { Agent, getGlobalDispatcher, setGlobalDispatcher, type Dispatcher } from 'undici';
import { afterAll, beforeAll } from 'vitest';

/**
 * For the file that calls it: `fetch` goes through an agent of the file's own, which
 * `closeConnections()` closes (once its requests are done) and replaces. The agent fetch had
 * before is put back after the file.
 * @example const { closeConnections } = ownConnections(); afterEach(async () => { await closeConnections(); await server.stop(); });
 */
export function ownConnections(): { closeConnections(): Promise<void> } {
  let before: Dispatcher | undefined;
  let agent = new Agent();
  beforeAll(() => {
    before = getGlobalDispatcher();
    setGlobalDispatcher(agent);
  });
  afterAll(async () => {
    if (before) setGlobalDispatcher(before);
    await agent.close();
  });
  return {
    async closeConnections() {
      const used = agent;
      agent = new Agent();
      setGlobalDispatcher(agent);
      await used.close();
    },
  };
}
