/** GET /audit_log: the calling key's Company environment's audit entries, newest first (docs/audit-log.md). */
import type { ServerContext } from '../context.js';
import { atMostOne, optionalCode, optionalInt64, optionalWire, readPage } from '../http/params.js';
import { ok, type Routes } from '../http/types.js';
import { auditEntryView, pageOfEntries, TARGET_MAX, type AuditEntry, type EntrySelection } from './log.js';

export function auditLogRoutes({ env }: ServerContext): Routes {
  return {
    'audit_log.list': (req) => {
      const query = req.query;
      const operation = query.get('operation') || undefined;
      const target = optionalCode(query.get('target'), 'target', TARGET_MAX);
      const mentions = optionalInt64(query.get('mentions'), 'mentions');
      atMostOne(['target', 'mentions'], (field) => (field === 'target' ? target : mentions) !== undefined);
      const selection: EntrySelection = target !== undefined ? { target } : mentions !== undefined ? { mentioning: mentions } : undefined;
      const apiKey = query.get('api_key') || undefined;
      const author = query.get('author')?.toLowerCase() || undefined;
      const from = optionalWire('datetime', query.get('from'), 'from');
      const to = optionalWire('datetime', query.get('to'), 'to');
      // The target or the mentions are the index read (pageOfEntries); the other filters skip what it yields.
      const keep = (entry: AuditEntry) =>
        (operation === undefined || entry.operation === operation) &&
        (apiKey === undefined || ('api_key' in entry.actor && entry.actor.api_key === apiKey)) &&
        (author === undefined || ('author' in entry.actor && entry.actor.author === author)) &&
        // Canonical wire datetimes (UTC, whole seconds) sort as text.
        (from === undefined || entry.at >= from) &&
        (to === undefined || entry.at <= to);
      return ok(pageOfEntries(env, req.tenant, selection, readPage(req.query), (entry) => (keep(entry) ? auditEntryView(entry) : undefined)));
    },
  };
}
