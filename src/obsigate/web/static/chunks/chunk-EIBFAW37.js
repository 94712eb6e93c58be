var a=Object.defineProperty,o=(r,e)=>a(r,"name",{value:e,configurable:!0}),_=(r,e)=>{for(var t in e)a(r,t,{get:e[t],enumerable:!0})};export{o as a,_ as b};
