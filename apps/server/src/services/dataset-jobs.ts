// What a dataset job's parameters must agree with beyond their schema, checked at creation so that a job that could
// only fail is refused with the field and the reason: the attack classes against the attack captures given, and the
// schedule as the engine will compile it (time zones, times, addresses, ports).
import { type DatasetParams, datasetNameOf, type FileRef } from "@tracemill/contracts";
import { compileSchedule } from "@tracemill/core";
import { HttpError } from "./http-error.js";

/** The parameters as the job will keep them: the dataset named after the job's title unless named. */
export function datasetJobParams(
  params: DatasetParams,
  title: string,
  refs: Partial<Record<string, FileRef[]>>,
): DatasetParams {
  const attacks = refs.attacks?.length ?? 0;
  const classes = params.labels.attackClasses.length;
  if (classes > attacks) {
    throw new HttpError(400, [
      `Invalid parameter labels.attackClasses: ${classes} classes for ${attacks} attack capture${attacks === 1 ? "" : "s"} (one class per attack capture, in the same order)`,
    ]);
  }
  if (params.labels.schedule) {
    try {
      compileSchedule(params.labels.schedule);
    } catch (error) {
      throw new HttpError(400, [`Invalid parameter ${(error as Error).message}`]);
    }
  }
  return { ...params, name: params.name ?? datasetNameOf(title) };
}
