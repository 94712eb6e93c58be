import{a as i}from"./chunk-EIBFAW37.js";var t,e=(t=class{constructor(r){this.init=r,this.records=this.init()}reset(){this.records=this.init()}},i(t,"ImperativeState"),t);export{e as a};
