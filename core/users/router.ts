import { router } from '../trpc.js';
import { getUser } from './get-user.js';
import { listUsers } from './list-users.js';
import { searchUsers } from './search-users.js';

export const usersRouter = router({
  listUsers,
  getUser,
  searchUsers,
});
