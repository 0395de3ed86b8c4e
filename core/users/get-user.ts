import { notFound } from '../errors.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { getUser as readUser } from './user.repository.js';
import { ZUser, ZUserIdInput } from './user.schemas.js';

export const getUser = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/users/{id}',
      tags: ['Users'],
      summary: 'Get a user',
      description: "Another subsidiary's user is a 404 to a subsidiary-bound client; a user of no subsidiary is seen by every client of the tenant.",
      protect: true,
    },
    scopes: ['user:read'],
  })
  .input(ZUserIdInput)
  .output(ZUser)
  .query(async ({ ctx, input }) => {
    const record = await readUser(ctx.db, scopeOf(ctx.principal), input.id);
    if (!record) throw notFound('User');
    return record;
  });
