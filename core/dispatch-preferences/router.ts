import { router } from '../trpc.js';
import { putDispatchPreference } from './put-dispatch-preference.js';
import { searchDispatchPreferences } from './search-dispatch-preferences.js';

export const dispatchPreferencesRouter = router({
  searchDispatchPreferences,
  putDispatchPreference,
});
