function r(n){let t=(n.match(/\r\n/g)||[]).length,e=(n.match(/\n/g)||[]).length;return t>0&&t*2>=e?`\r
`:`
`}var c=n=>n.replace(/\r\n/g,`
`),o=(n,t)=>t===`\r
`?c(n).replace(/\n/g,`\r
`):n;function l(n,t){let e=t;return n!==""&&!/\n$/.test(n)&&e.endsWith(`
`)&&(e=e.slice(0,-1)),o(e,r(n))}export{r as a,c as b,o as c,l as d};
