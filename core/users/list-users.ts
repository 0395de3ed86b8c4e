import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { listActiveUsers } from './user.repository.js';
import { ZListUsersInput, ZUserList } from './user.schemas.js';

export const listUsers = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/users/list',
      tags: ['Users'],
      summary: 'List active users',
      description:
        'A bare array (not a page) of the Active users the client sees, ordered by Name (code point order), then Id. ' +
        'A subsidiary-bound client sees its subsidiary\'s users and the users of no subsidiary.',
      protect: true,
    },
    scopes: ['user:read'],
  })
  .input(ZListUsersInput)
  .output(ZUserList)
  .query(({ ctx }) => listActiveUsers(ctx.db, scopeOf(ctx.principal)));
