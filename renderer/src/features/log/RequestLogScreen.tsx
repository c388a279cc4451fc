/**
 * The Request log screen: running and kept tasks, and every call clients made through Switchboard, live.
 */
import { RequestLog } from './RequestLog.js';
import { TaskList } from './TaskList.js';

/** The Request log screen. */
export function RequestLogScreen() {
  return (
    <>
      <header className="screen-head">
        <div>
          <h1>Request log</h1>
          <p>Every call clients make through Switchboard; new calls appear as they happen.</p>
        </div>
      </header>
      <TaskList />
      <RequestLog />
    </>
  );
}
