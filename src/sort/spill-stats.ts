/** Runs spilled by every sorter of this thread since it started: lets a test see that a budget forced spilling. */
export const spillStats = { runs: 0 };
