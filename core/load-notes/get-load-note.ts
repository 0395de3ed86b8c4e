import { withHeaders } from '../answer-headers.js';
import { notFound } from '../errors.js';
import { ZEtagHeader } from '../shared/record-headers.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { findNotedLoad, getLoadNote as readLoadNote, loadNoteEtag, toLoadNote } from './load-note.repository.js';
import { ZGetLoadNoteInput, ZLoadNote } from './load-note.schemas.js';

export const getLoadNote = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/loads/{loadNumber}/notes/{noteId}',
      tags: ['Load notes'],
      summary: 'Read one note of a load',
      description: "The note the create's Location names. A note of another load is 404.",
      protect: true,
      responseHeaders: ZEtagHeader,
    },
    scopes: ['load:read'],
  })
  .input(ZGetLoadNoteInput)
  .output(ZLoadNote)
  .query(async ({ ctx, input }) => {
    const scope = scopeOf(ctx.principal);
    const load = await findNotedLoad(ctx.db, scope, input.loadNumber);
    if (!load) throw notFound('Load');
    const row = await readLoadNote(ctx.db, scope.tenantId, load.id, input.noteId);
    if (!row) throw notFound('Note');
    return withHeaders(toLoadNote(row), { etag: loadNoteEtag(row) });
  });
