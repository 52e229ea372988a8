// The part of fs-native-extensions (which ships no types) that the store uses.
declare module 'fs-native-extensions' {
  /**
   * An exclusive lock on the file of `fd` (an OFD lock on Linux, flock on macOS, LockFileEx
   * on Windows): true when granted, false when another handle holds it.
   */
  export function tryLock(fd: number): boolean;
}
