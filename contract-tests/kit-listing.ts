// Lists as the rules read them: page after page as a client would, and what a list and a
// read must hold after a create.
import type { Exchange } from './http.js';
import type { Kit, KitBase } from './kit.js';
import { underBase } from './kit-calls.js';
import { echoSchema, key } from './kit-records.js';
import { MAX_PAGES, nextPage } from './paging.js';

/** The kit's lists: `kit` is the whole kit, for what they ask of its other parts. */
export function kitListing(
  { roles }: KitBase,
  kit: Kit,
): Pick<Kit, 'listPages' | 'listedAsSent' | 'readAsSent'> {
  return {
    async listPages(ctx, collection, enough = () => false) {
      const list = collection.list!;
      const { idProperty } = collection.plan;
      const records: Record<string, unknown>[] = [];
      const pages: Exchange[] = [];
      const seen = new Set<string>();
      let ask: { params?: Record<string, unknown>; url?: string } = { params: {} };
      let serverPaged = false;
      while (pages.length < MAX_PAGES) {
        const page = await kit.call(ctx, list, ask);
        kit.conforms(ctx, page, list, kit.success(list));
        pages.push(page);
        const items = kit.itemsOf(list, page);
        const fresh = items.filter((record) => !seen.has(key(record[idProperty])));
        // Some records new, some from a page before: the pages overlap at their boundary (a
        // page all of old ones is a server ignoring what asks for the next, and ends it).
        // Only where the server said where the next page starts: a page or offset the suite
        // counts shifts rightly when another client writes between two reads.
        if (serverPaged && fresh.length > 0 && fresh.length < items.length && pages.length > 1)
          kit.fail(
            'pages that repeat a record at their boundary',
            [
              `page ${pages.length} holds ${idProperty} ${items
                .filter((record) => !fresh.includes(record))
                .map((record) => JSON.stringify(record[idProperty]))
                .join(', ')} again, which a page before held`,
            ],
            pages.at(-2)!,
            page,
          );
        for (const record of fresh) seen.add(key(record[idProperty]));
        records.push(...items);
        // A page of nothing new: the last, or a server that ignores what asks for the next.
        if (enough(records) || (pages.length > 1 && fresh.length === 0)) break;
        const next = nextPage(list, page, ask.params ?? {}, items);
        if (!next) break;
        serverPaged = next.kind === 'link' || next.counted !== true;
        if (next.kind === 'params') ask = { params: next.params };
        else if (underBase(ctx.target.baseUrl, next.url)) ask = { url: next.url };
        // A next link elsewhere: the credentials are not sent there.
        else break;
      }
      return { records, pages };
    },

    async listedAsSent(ctx, collection, creations) {
      const list = collection.list;
      if (creations.length === 0 || !list) return;
      const { idProperty } = collection.plan;
      const wanted = new Set(creations.map(({ id }) => key(id)));
      const { records, pages } = await kit.listPages(ctx, collection, (read) =>
        [...wanted].every((id) => read.some((record) => key(record[idProperty]) === id)),
      );
      const listed = pages.at(-1)!;
      const pagesRead =
        pages.length === 1 ? 'the next list' : `the next list (${pages.length} pages read)`;
      const byId = new Map(records.map((record) => [key(record[idProperty]), record]));
      for (const { exchange, sent, id } of creations) {
        const found = byId.get(key(id));
        if (!found)
          kit.fail(
            'created records missing from the next list',
            [`the created record (${idProperty} ${JSON.stringify(id)}) is not in ${pagesRead}`],
            exchange,
            listed,
          );
        const problems = kit.echoProblems(
          echoSchema(roles, collection.create ?? list),
          sent,
          found,
          `listed (${idProperty} ${JSON.stringify(id)})`,
          kit.shownSchema(list, listed.status),
        );
        if (problems.length > 0)
          kit.fail('listed values altered from what was sent', problems, exchange, listed);
      }
    },

    async readAsSent(ctx, collection, creations) {
      const read = collection.read;
      if (!read) return;
      const { idProperty } = collection.plan;
      for (const { exchange, sent, id } of creations) {
        const answer = await kit.call(ctx, read, { params: kit.itemParams(collection, id) });
        if (answer.status === 404)
          kit.fail(
            'created records not found when read',
            [
              `the created record (${idProperty} ${JSON.stringify(id)}) is not found by ${read.operationId}`,
            ],
            exchange,
            answer,
          );
        kit.conforms(ctx, answer, read, kit.success(read));
        const record = kit.recordOf(read, answer);
        const problems = [
          ...(key(record?.[idProperty]) === key(id)
            ? []
            : [
                `the read answers ${idProperty} ${JSON.stringify(record?.[idProperty])} for ${JSON.stringify(id)}`,
              ]),
          ...kit.echoProblems(
            echoSchema(roles, collection.create ?? read),
            sent,
            record,
            'read back',
            kit.shownSchema(read, answer.status),
          ),
        ];
        if (problems.length > 0)
          kit.fail('read values altered from what was sent', problems, exchange, answer);
      }
    },
  };
}
