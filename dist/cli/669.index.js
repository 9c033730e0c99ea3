const id=669,ids=[669],modules={8050:(module=>{module.exports=eval("require")("kerberos")})};export{id,ids,modules};
