/**
 * Says when the UI has lost its connection to Switchboard, when a config
 * file edit was refused, and when part of one waits for a restart.
 */
import { useAppStore } from '../store/context.js';

/** The banner (nothing while connected and the config is fine). */
export function ConnectionBanner() {
  const connection = useAppStore((s) => s.connection);
  const configError = useAppStore((s) => s.info.data?.configError);
  const restartNeeded = useAppStore((s) => s.info.data?.restartNeeded);
  return (
    <>
      {connection === 'reconnecting' && (
        <div className="banner tone-bad" role="alert">
          Disconnected — reconnecting…
        </div>
      )}
      {connection === 'connecting' && (
        <div className="banner tone-info" role="status">
          Connecting to Switchboard…
        </div>
      )}
      {configError && (
        <div className="banner tone-warn" role="alert">
          The config file on disk was not applied: {configError}
        </div>
      )}
      {restartNeeded && restartNeeded.length > 0 && (
        <div className="banner tone-info" role="status">
          Restart Switchboard to apply {restartNeeded.join(', ')}: the rest of the config file is in force.
        </div>
      )}
    </>
  );
}
