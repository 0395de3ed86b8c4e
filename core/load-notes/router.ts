import { router } from '../trpc.js';
import { createLoadNote } from './create-load-note.js';
import { findLoadNotes } from './find-load-notes.js';
import { getLoadNote } from './get-load-note.js';

/** Notes on loads: written once, listed newest first; Public ones reach the tracking page. */
export const loadNotesRouter = router({ createLoadNote, findLoadNotes, getLoadNote });
