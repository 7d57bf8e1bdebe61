/** Live chat's configuration use-cases in one import (each lives in its own file beside this one). */
export * from "./tabulations";
export * from "./samples";
export * from "./macros";
export * from "./calendar";
export * from "./settings";
export * from "./preferences";
export { isOpen, openAt } from "./hours";
