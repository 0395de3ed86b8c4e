import { scopeOf } from '../shared/scope.js';
import { answerPage } from '../shared/search-page.js';
import { authedProcedure } from '../trpc.js';
import { findUsers } from './user.repository.js';
import { ZSearchUsersInput, ZUserPage } from './user.schemas.js';

export const searchUsers = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/users/search',
      tags: ['Users'],
      summary: 'Search users',
      description:
        'Newest UpdatedAt first, Id breaking ties. Keyword matches Name, UserName or Email anywhere, case-insensitively; ' +
        'Roles and Statuses match any of their values (an empty list is a 400); UpdatedAtRange is Start inclusive, End exclusive.',
      protect: true,
    },
    scopes: ['user:read'],
  })
  .input(ZSearchUsersInput)
  .output(ZUserPage)
  .mutation(async ({ ctx, input }) => answerPage(input, await findUsers(ctx.db, scopeOf(ctx.principal), input)));
