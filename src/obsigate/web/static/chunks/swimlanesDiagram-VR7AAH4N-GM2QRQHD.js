import{a as o,b as e}from"./chunk-LO2YMJCH.js";import"./chunk-ACHFTLOL.js";import"./chunk-XL2P53LE.js";import"./chunk-5XPX6LM2.js";import"./chunk-3MVZ4TG5.js";import"./chunk-HKE6FXC7.js";import"./chunk-TELNDW5Z.js";import"./chunk-KND6HWTI.js";import"./chunk-4ZIVCTLN.js";import"./chunk-MKLJ6WNB.js";import"./chunk-GWSBUKS2.js";import"./chunk-4QDUNTW5.js";import"./chunk-OTA4QKHM.js";import"./chunk-FB7RTGWT.js";import"./chunk-UMAO7SHI.js";import"./chunk-Z7EJL65G.js";import"./chunk-KYWVTABJ.js";import"./chunk-CFSCDM4L.js";import"./chunk-Q3IOR6CC.js";import{a as r}from"./chunk-HLAGJP7J.js";import"./chunk-DBPT7IUU.js";import"./chunk-C2RC3QPW.js";var m=r(t=>`${o(t)}
  .swimlane.cluster rect {
    stroke: ${t.clusterBorder} !important;
  }
  [data-look="neo"].cluster rect {
    filter: none;
  }
`,"getStyles"),i=m,B=e({defaultLayout:"swimlane",styles:i});export{B as diagram};
