import { notFound } from '../errors.js';
import { scopeOf } from '../shared/scope.js';
import { answerPage } from '../shared/search-page.js';
import { checkCursor } from '../shared/select-page.js';
import { authedProcedure } from '../trpc.js';
import { findLoadNotes as readLoadNotes, findNotedLoad, LOAD_NOTE_ORDER } from './load-note.repository.js';
import { ZFindLoadNotesInput, ZLoadNotePage } from './load-note.schemas.js';

export const findLoadNotes = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/loads/{loadNumber}/notes',
      tags: ['Load notes'],
      summary: "List a load's notes",
      description: 'Internal and Public notes, newest CreatedAt first (Id breaking ties).',
      protect: true,
    },
    scopes: ['load:read'],
  })
  .input(ZFindLoadNotesInput)
  .output(ZLoadNotePage)
  .query(async ({ ctx, input }) => {
    checkCursor(LOAD_NOTE_ORDER, input);
    const scope = scopeOf(ctx.principal);
    const load = await findNotedLoad(ctx.db, scope, input.loadNumber);
    if (!load) throw notFound('Load');
    return answerPage(input, await readLoadNotes(ctx.db, scope.tenantId, load.id, input));
  });
