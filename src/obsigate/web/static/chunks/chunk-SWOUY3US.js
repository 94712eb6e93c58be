function s(n){if(!n.startsWith(`---
`))return{yaml:null,body:n,bodyLine:0};let o=n.indexOf(`
---`,3);if(o<0)return{yaml:null,body:n,bodyLine:0};let i=o>3?n.slice(4,o):"",r=n.indexOf(`
`,o+1),l=r<0?"":n.slice(r+1),e=n.slice(0,o+1).split(`
`).length;return{yaml:i,body:l,bodyLine:e}}function c(n,o){let i=(n||"").replace(/\n+$/,"");return i?`---
${i}
---
${o}`:o}export{s as a,c as b};
