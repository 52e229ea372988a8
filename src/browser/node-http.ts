// node:http in a browser: only the reason phrases (STATUS_CODES), from the table Node's own
// HTTP frameworks read (the `statuses` package).
import codes from 'statuses/codes.json' with { type: 'json' };

export const STATUS_CODES: Readonly<Record<number, string | undefined>> = codes;
