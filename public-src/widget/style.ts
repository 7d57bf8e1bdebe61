/** The widget's styles (inside its shadow root; colors come from the widget settings as CSS variables). */
export const CSS = `
*{box-sizing:border-box;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;font-size:14px}
[hidden]{display:none!important}
.svg{display:inline-flex}.launcher .svg,.x .svg{justify-content:center}
button{cursor:pointer;font:inherit}
.launcher{position:fixed;display:flex;align-items:center;justify-content:center;bottom:20px;z-index:2147483000;width:56px;height:56px;border-radius:50%;border:0;background:var(--launcher-bg);color:var(--launcher-text);font-size:24px;box-shadow:0 4px 14px rgba(0,0,0,.25)}
.left{left:20px}.right{right:20px}.center{left:50%;transform:translateX(-50%)}
.win{position:fixed;bottom:88px;z-index:2147483000;width:370px;max-width:calc(100vw - 24px);height:560px;max-height:calc(100vh - 110px);display:flex;flex-direction:column;background:var(--messageList-bg);color:var(--messageList-text);border-radius:12px;overflow:hidden;box-shadow:0 8px 30px rgba(0,0,0,.25)}
.win.page{position:static;transform:none;width:100%;max-width:none;height:100vh;max-height:none;border-radius:0;box-shadow:none}
header{display:flex;align-items:center;gap:8px;padding:10px 12px;background:var(--header-bg);color:var(--header-text)}
.titles{flex:1;display:flex;flex-direction:column;min-width:0}
.title{all:unset;cursor:pointer;font-weight:600;font-size:16px}
.title:focus-visible,.x:focus-visible{outline:2px solid currentColor}
.subtitle{font-size:12px;opacity:.85}
.x{background:none;border:0;color:inherit;font-size:22px;line-height:1}
.users{list-style:none;margin:0;padding:8px 12px;background:var(--userList-bg);color:var(--userList-text);border-bottom:1px solid rgba(0,0,0,.08)}
.users li{padding:3px 0}.users .head{font-weight:600}.muted{opacity:.6}
.list{flex:1;overflow-y:auto;padding:12px;display:flex;flex-direction:column;gap:6px}
.msg{display:flex;flex-direction:column;max-width:85%}
.msg.me{align-self:flex-end;align-items:flex-end}
.msg.them{align-self:flex-start}
.msg.system{align-self:center;max-width:95%;text-align:center;opacity:.85}
.bubble{padding:8px 11px;border-radius:12px;overflow-wrap:anywhere;white-space:normal}
.me .bubble{background:var(--sentMessage-bg);color:var(--sentMessage-text)}
.them .bubble{background:var(--receivedMessage-bg);color:var(--receivedMessage-text)}
.system .bubble{background:transparent;font-size:13px}
.bubble a{color:inherit;text-decoration:underline}
.bubble pre{margin:4px 0;padding:6px;background:rgba(0,0,0,.08);border-radius:6px;white-space:pre-wrap}
.bubble s{opacity:.85}.bubble code{font-family:ui-monospace,monospace;font-size:13px}
.img{max-width:220px;max-height:220px;border-radius:8px;display:block;margin-top:4px}
.edited{font-size:11px;opacity:.75}.deleted{opacity:.7}
.tools{display:flex;gap:8px;opacity:0}
.msg:hover .tools,.msg:focus-within .tools{opacity:1}
@media (hover:none){.tools{opacity:1}}
.at{display:block;text-align:right;font-size:11px;opacity:.7;margin-top:2px}
.who{display:flex;align-items:center;gap:6px;margin:4px 0 2px;font-size:12px;font-weight:600}
.av{width:24px;height:24px;border-radius:50%;color:#fff;display:inline-flex;align-items:center;justify-content:center;font-size:11px}
.launcher{overflow:visible}
.badge{position:absolute;top:-4px;right:-4px;min-width:20px;height:20px;padding:0 5px;border-radius:10px;background:#dc2626;color:#fff;font-size:12px;font-weight:700;display:flex;align-items:center;justify-content:center}
.snd[aria-pressed=false]{opacity:.45}
.link{background:none;border:0;padding:2px;color:var(--highlight);font-size:12px}
.link[disabled]{opacity:.4;cursor:default}
.status{padding:6px 12px;font-size:12px;background:rgba(0,0,0,.04)}
.typing{padding:2px 12px 6px;font-size:12px;font-style:italic;opacity:.75}
.status.error{color:#b91c1c}
.suggest{display:flex;flex-wrap:wrap;gap:6px;padding:0 12px}
.suggest:empty{display:none}
.chip{border:1px solid var(--highlight);color:var(--highlight);background:none;border-radius:14px;padding:4px 10px;margin-bottom:6px}
.bottom{border-top:1px solid rgba(0,0,0,.08);background:var(--userInput-bg);color:var(--userInput-text)}
.input{display:flex;align-items:flex-end;gap:4px;padding:8px}
textarea,input,select{flex:1;resize:none;border:1px solid rgba(0,0,0,.15);border-radius:8px;padding:8px;background:var(--userInput-bg);color:var(--userInput-text);max-height:120px}
.icon{background:none;border:0;font-size:18px;padding:6px;color:inherit;display:flex}
.icon[disabled]{opacity:.35;cursor:default}
.send{border:0;border-radius:8px;padding:8px 12px;background:var(--highlight);color:#fff;font-weight:600}
.send[disabled]{opacity:.6}
.editbar,.fileinfo{display:flex;align-items:center;gap:8px;padding:6px 10px 0;font-size:12px}
.editbar span,.fileinfo span{flex:1}
.dept{display:flex;padding:8px 8px 0}
.emojis{padding:6px 8px 0}
.tabs{display:flex;gap:2px;border-bottom:1px solid rgba(0,0,0,.08)}
.tabs button,.grid button{background:none;border:0;font-size:18px;padding:4px;border-radius:6px}
.tabs button[aria-selected=true]{background:rgba(0,0,0,.08)}
.grid{display:grid;grid-template-columns:repeat(8,1fr);max-height:140px;overflow-y:auto}
.offline{padding:12px;display:flex;flex-direction:column;gap:8px;overflow-y:auto;flex:1}
.offline label{display:flex;flex-direction:column;gap:4px;font-size:13px}
`;
