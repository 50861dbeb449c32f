/**
 * The event-bus API's words (EVENTBUS.md): the actions a request names ({@link
 * io.github.vertxbeanstalkd.contract.Action}) and the failures it may get back ({@link
 * io.github.vertxbeanstalkd.contract.Failure}). Both sides of the contract import it, the event-bus
 * front ({@code api}) and the typed client ({@code client}), and it imports nothing of ours.
 *
 * @see <a href="{@docRoot}/../spec/EVENTBUS.html">EVENTBUS.md</a>
 */
package io.github.vertxbeanstalkd.contract;
