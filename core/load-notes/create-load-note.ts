import { withHeaders } from '../answer-headers.js';
import { notFound } from '../errors.js';
import { appendEvent } from '../events/outbox.repository.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { ZCreatedHeaders } from '../shared/record-headers.js';
import { newRecordId } from '../shared/record-id.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { findNotedLoad, insertLoadNote, loadNoteEtag, toLoadNote, type LoadNoteRow } from './load-note.repository.js';
import { ZCreateLoadNoteInput, ZLoadNote } from './load-note.schemas.js';

export const createLoadNote = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/loads/{loadNumber}/notes',
      tags: ['Load notes'],
      summary: 'Add a note to a load',
      description:
        'Text is 1 to 2,000 characters (trimmed; white space alone is a 400). Access `Public` shows the note on the ' +
        "load's customer tracking page (`GET /track/{token}`, HTML and JSON); `Internal` never leaves the API. CreatedBy " +
        'is the calling client\'s id. Notes cannot be changed or deleted: their ETag never changes. Emits ' +
        '`load.note.created` (data: the note with LoadNumber), routed by the load\'s subsidiary.',
      protect: true,
      responseHeaders: ZCreatedHeaders,
    },
    scopes: ['load:update'],
    successStatus: 201,
  })
  .input(ZCreateLoadNoteInput)
  .output(ZLoadNote)
  .mutation(async ({ ctx, input }) => {
    const scope = scopeOf(ctx.principal);
    const load = await findNotedLoad(ctx.db, scope, input.loadNumber);
    if (!load) throw notFound('Load');
    const row: LoadNoteRow = {
      id: newRecordId('note'),
      tenant_id: scope.tenantId,
      load_id: load.id,
      text: input.Text,
      access: input.Access,
      created_by: ctx.principal.ClientId,
      created_at: formatStoredDateTime(ctx.clock.now()),
    };
    const note = toLoadNote(row);
    await ctx.db.transaction().execute(async (trx) => {
      await insertLoadNote(trx, row);
      await appendEvent(trx, ctx.clock, {
        tenantId: scope.tenantId,
        subsidiaryId: load.subsidiary_id,
        type: 'load.note.created',
        data: { ...note, LoadNumber: load.load_number },
      });
    });
    return withHeaders(note, {
      etag: loadNoteEtag(row),
      location: `/api/p/v${input.version}/loads/${encodeURIComponent(load.load_number)}/notes/${encodeURIComponent(row.id)}`,
    });
  });
