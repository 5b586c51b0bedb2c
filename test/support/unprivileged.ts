/**
 * Runs `write` as a user who may not write where root may: root ignores a folder's mode (a read-only
 * folder refuses it nothing), so as root the process takes another effective user (nobody, 65534)
 * for the write, and takes root back after, whatever happens. As any other user, `write` runs as it is.
 * @example
 * await chmod(dir, 0o555);
 * await expect(asUnprivileged(() => mock.pact({ consumer: 'web-app', dir }))).rejects.toThrow('EACCES');
 */
export async function asUnprivileged<T>(write: () => Promise<T>): Promise<T> {
  if (process.getuid?.() !== 0) return write();
  process.setegid!(65534);
  process.seteuid!(65534);
  try {
    return await write();
  } finally {
    process.seteuid!(0);
    process.setegid!(0);
  }
}
