import base from './vitest.config.ts';
const projects = (base as any).test.projects.map((p: any) =>
  p.test.name === 'fast' ? { test: { ...p.test, execArgv: ['--cpu-prof', '--cpu-prof-dir=/tmp/hp-prof-explore'] } } : p);
export default { ...base, test: { ...(base as any).test, projects } };
