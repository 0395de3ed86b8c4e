import { scheduledTime } from '../eta/estimate.js';
import { requireStopDateTime } from '../shared/local-datetime.js';
import { authedProcedure } from '../trpc.js';
import { ZStop } from './trip.schemas.js';
import { ZSetAppointmentInput, ZTripEtagHeader } from './stop-write.schemas.js';
import { refuseTripStatuses, writeStop } from './stop-write.js';
import { patchStop } from './trip-write.repository.js';

const flag = (value: boolean | undefined) => (value === undefined ? undefined : value ? 1 : 0);

export const setAppointment = authedProcedure
  .meta({
    openapi: {
      method: 'PUT',
      path: '/api/p/v{version}/trips/{tripId}/stops/{stopId}/appointment',
      tags: ['Stops'],
      summary: 'Set the appointment of a stop',
      description:
        'Sets AppointmentDate (date-time rules of the arrival) and ScheduleType APPT: a delivery_window stop becomes an appointment stop, ' +
        'a waypoint stays a waypoint. Requested and Confirmed set AppointmentRequested and AppointmentConfirmed when sent. ' +
        'A Manual ETA that was the default (the previous appointment or window Begin) follows the new appointment. ' +
        '409 InvalidState on a Cancelled or Delivered trip. The `ETag` header is the trip\'s.',
      responseHeaders: ZTripEtagHeader,
      errorResponses: [409],
      protect: true,
    },
    scopes: ['trip:update'],
  })
  .input(ZSetAppointmentInput)
  .output(ZStop)
  .mutation(async ({ ctx, input }) =>
    writeStop(ctx, input, async (write) => {
      const { trx, stop, now } = write;
      const appointmentDate = requireStopDateTime('AppointmentDate', input.AppointmentDate, stop.time_zone);
      refuseTripStatuses(write, ['Cancelled', 'Delivered'], 'set an appointment');
      // A Manual ETA someone entered stays; one that was only the default moves with the schedule.
      const manualWasDefault = stop.eta_manual === scheduledTime({
        scheduleType: stop.schedule_type,
        appointmentDate: stop.appointment_date,
        windowBegin: stop.window_begin,
      });
      await patchStop(
        trx,
        stop,
        {
          stop_kind: stop.stop_kind === 'waypoint' ? 'waypoint' : 'appointment',
          schedule_type: 'APPT',
          appointment_date: appointmentDate,
          appointment_requested: flag(input.Requested),
          appointment_confirmed: flag(input.Confirmed),
          eta_manual: manualWasDefault ? appointmentDate : undefined,
        },
        now,
      );
    }));
